import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_ROUTES, REQUEST_EXAMPLE_VARIANTS, REQUEST_EXAMPLES } from '@parley/shared';
import { buildOpenApiDocument } from './openapi.js';

const SPEC = fs.readFileSync(new URL('../../../docs/contract/service-api.md', import.meta.url), 'utf8');

/** Every `| METHOD | /v1/... |` row of the spec's endpoint tables. */
function specOperations(): [string, string][] {
  return [...SPEC.matchAll(/^\| (GET|POST|PUT|DELETE) \| (\/v1\/[^ |]*)[^|]*\|/gm)].map((m) => [m[1]!.toLowerCase(), m[2]!]);
}

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument('http://localhost:3000') as {
    openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; security: unknown[]; 'x-roles'?: string[] }>>;
  };

  it('documents the notifications (extension): the webhook routes and, under `webhooks`, each event\'s body', () => {
    for (const path of ['/v1/webhook', '/v1/webhook/all', '/v1/webhook/{id}', '/v1/webhook/{id}/test', '/v1/webhook/{id}/deliveries', '/v1/webhook/{id}/secret', '/v1/notification/settings']) {
      expect(document.paths[path], path).toBeDefined();
    }
    const hooks = (document as unknown as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }> }).webhooks;
    expect(Object.keys(hooks)).toEqual(['lead.created', 'conversation.handoff_requested', 'conversation.waiting_message', 'feedback.created', 'resource.processed']);
    const lead = hooks['lead.created']!.post.requestBody.content['application/json']!.schema;
    expect(lead.properties.type).toMatchObject({ const: 'lead.created' });
    expect(lead.properties.data).toMatchObject({ properties: { email: { type: 'string' }, chatbotId: { type: 'string' } } });
  });

  it('is OpenAPI 3.1 and holds every /v1 operation of the spec', () => {
    expect(document.openapi).toBe('3.1.0');
    const operations = specOperations();
    expect(operations.length).toBe(20);
    for (const [method, path] of operations) {
      expect(document.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    }
  });

  it('documents the error statuses the spec lists, and the embed and system routes', () => {
    const rows = [...SPEC.matchAll(/^\| (GET|POST|PUT|DELETE) \| (\/v1\/[^ |]*) \|[^|]*\|[^|]*\| ([\d, ]+) \|$/gm)];
    expect(rows.length).toBeGreaterThan(10);
    for (const [, method, path, statuses] of rows) {
      const documented = Object.keys(document.paths[path!]![method!.toLowerCase()]!.responses);
      for (const status of statuses!.split(',').map((s) => s.trim())) expect(documented, `${method} ${path}`).toContain(status);
    }
    for (const path of ['/v1/embed/{chatbotId}/config', '/v1/embed/{chatbotId}/chat-stream', '/v1/openapi.json', '/health']) {
      expect(document.paths[path]).toBeDefined();
    }
  });

  it('requires x-api-key everywhere except the public routes', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const isSignIn = (path === '/v1/session' && method === 'post') || path === '/v1/session/methods' || path === '/v1/member/invitation/{token}/accept'
          || path.startsWith('/v1/member/password-reset');
        const isPublic = path.startsWith('/v1/embed/') || path === '/v1/openapi.json' || path === '/health' || path === '/health/ready' || isSignIn;
        expect(operation.security.some((s) => JSON.stringify(s) === '{"apiKey":[]}'), path).toBe(!isPublic);
      }
    }
  });

  it('lists each authenticated operation\'s member roles (extension), and the 403 of the roles it refuses', () => {
    expect(document.paths['/v1/chatbot']!.post!['x-roles']).toEqual(['OWNER', 'ADMIN']);
    expect(document.paths['/v1/conversation/{id}']!.get!['x-roles']).toEqual(['OWNER', 'ADMIN', 'AGENT']);
    expect(document.paths['/v1/member/all']!.get!['x-roles']).toEqual(['OWNER']);
    expect(document.paths['/v1/member/all']!.get!.responses['403']).toBeDefined();
    expect(document.paths['/v1/resource/{id}']!.delete!.responses['403']).toBeDefined();
    expect(document.paths['/v1/embed/{chatbotId}/config']!.get!['x-roles']).toBeUndefined();
  });

  it('documents the answer metadata beside `text` (extensions) and that `text` carries no "Source:" line', () => {
    type Schema = { properties: Record<string, { description?: string; properties?: Record<string, unknown> }>; required?: string[] };
    const operation = (path: string) => document.paths[path]!.post as unknown as {
      responses: Record<string, { description: string; content: Record<string, { schema: Schema & { oneOf?: (Schema & { properties: { type: { const: string } } })[] } }> }>;
    };
    for (const path of ['/v1/chatbot/chat', '/v1/resource/chat']) {
      const created = operation(path).responses['201']!;
      expect(created.description, path).toContain('no longer ends with a "Source: …" line');
      const schema = created.content['application/json']!.schema;
      expect(Object.keys(schema.properties), path).toEqual(['text', 'sources', 'refused', 'handoff']);
      expect(schema.required, path).toEqual(['text']);
      expect(schema.properties.text!.description, path).toContain('no trailing "Source: …" line');
      const source = (schema.properties.sources as unknown as { items: Schema }).items;
      expect(Object.keys(source.properties)).toEqual(['resourceId', 'title', 'section', 'page', 'url', 'timestampSec', 'snippet', 'pairId']);
      expect(source.required).toEqual(['resourceId', 'title', 'snippet']);
    }
    for (const path of ['/v1/chatbot/chat-stream', '/v1/resource/chat-stream', '/v1/embed/{chatbotId}/chat-stream']) {
      const created = operation(path).responses['201']!;
      expect(created.description, path).toContain('`streamEnd` carries `data: {sources, refused?, handoff?}`');
      expect(created.description, path).toContain('without a trailing "Source: …" line');
      const events = created.content['text/event-stream']!.schema.oneOf!;
      expect(events.map((event) => event.properties.type.const), path).toEqual(['partialResponse', 'streamEnd', 'error']);
      const end = events[1]!.properties.data!;
      // `state` (issue 35): the team has the conversation the embed chat named, so the bot did not answer.
      expect(Object.keys(end.properties!), path).toEqual(['sources', 'refused', 'handoff', 'state']);
    }
  });

  it('documents saved answers (extension): the QA type and the endpoints of its pairs', () => {
    type Schema = { enum?: string[]; description?: string; properties?: Record<string, Schema>; items?: Schema };
    const resource = (document.paths['/v1/resource/{id}']!.get as unknown as { responses: Record<string, { content: Record<string, { schema: Schema }> }> })
      .responses['200']!.content['application/json']!.schema;
    expect(resource.properties!.type!.enum).toContain('QA');
    expect(resource.properties!.type!.description).toContain('extension');
    expect(Object.keys(document.paths['/v1/resource/qa']!)).toEqual(['post']);
    expect(Object.keys(document.paths['/v1/resource/qa/{id}']!).sort()).toEqual(['get', 'put']);
    expect(Object.keys(document.paths['/v1/resource/qa/{id}/pairs']!)).toEqual(['post']);
    expect(Object.keys(document.paths['/v1/resource/qa/{id}/pairs/{pairId}']!)).toEqual(['delete']);
    expect(Object.keys(document.paths['/v1/resource/qa/{id}/pairs']!.post!.responses)).toContain('201');
  });

  it('documents knowledge gaps and saved answers per chatbot (extension)', () => {
    type Operation = { parameters?: { name: string }[]; responses: Record<string, unknown>; description?: string };
    const list = document.paths['/v1/chatbot/{id}/gaps']!.get as unknown as Operation;
    expect(list.parameters!.map((parameter) => parameter.name)).toEqual(['id', 'start', 'end']);
    expect(list.description).toContain('`grouping`');
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
    const dismiss = document.paths['/v1/chatbot/{id}/gaps/{gapId}/dismiss']!.post as unknown as Operation;
    expect(dismiss.parameters!.map((parameter) => parameter.name)).toEqual(['id', 'gapId']);
    const save = document.paths['/v1/chatbot/{id}/saved-answers']!.post as unknown as Operation;
    expect(Object.keys(save.responses)).toEqual(expect.arrayContaining(['201', '400', '402', '404']));
  });

  it('carries a request example for every JSON body, and each one passes its route\'s schema', () => {
    for (const route of ALL_ROUTES) {
      if (!route.body || route.bodyType === 'multipart') continue;
      const example = REQUEST_EXAMPLES[route.operationId];
      expect(example, route.operationId).toBeDefined();
      const parsed = route.body.safeParse(example);
      expect(parsed.success, `${route.operationId}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      const media = (document.paths[route.path]![route.method] as unknown as { requestBody: { content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> } })
        .requestBody.content['application/json']!;
      expect(media.example ?? media.examples?.default?.value).toEqual(example);
      for (const [name, variant] of Object.entries(REQUEST_EXAMPLE_VARIANTS[route.operationId] ?? {})) {
        const checked = route.body.safeParse(variant.value);
        expect(checked.success, `${route.operationId} ${name}: ${JSON.stringify(checked.error?.issues)}`).toBe(true);
        expect(media.examples?.[name]?.value).toEqual(variant.value);
      }
    }
  });

  it('documents website discovery (extension) in the settings schema, with examples', () => {
    type Media = { schema: { properties: { settings: { properties: Record<string, { description?: string; enum?: string[]; minimum?: number; maximum?: number; maxItems?: number }> } } }; examples: Record<string, unknown> };
    const media = (document.paths['/v1/resource/website']!.post as unknown as { requestBody: { content: Record<string, Media> } }).requestBody.content['application/json']!;
    const settings = media.schema.properties.settings.properties;
    expect(settings.discovery!.enum).toEqual(['NONE', 'SITEMAP', 'LINKS', 'SITEMAP_AND_LINKS']);
    expect(settings.discovery!.description).toContain('Extension');
    expect(settings.maxPages).toMatchObject({ minimum: 1, maximum: 1000 });
    expect(settings.maxDepth).toMatchObject({ minimum: 1, maximum: 10 });
    for (const field of ['includePaths', 'excludePaths']) {
      expect(settings[field]!.description).toContain('Extension (discovery only)');
      expect(settings[field]!.description).toContain('At most 100 patterns of at most 300 characters and 10 wildcards each');
      expect(settings[field]).toMatchObject({ maxItems: 100, items: { maxLength: 300 } });
    }
    expect(Object.keys(media.examples)).toEqual(['default', 'sitemapDiscovery', 'linkDiscovery']);
  });
});
