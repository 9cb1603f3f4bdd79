import {
  ALL_ROUTES, ANY_ROLE, NOTIFICATION_EVENT_DATA, NOTIFICATION_EVENT_TYPES, notificationEventBodySchema, REQUEST_EXAMPLE_VARIANTS, REQUEST_EXAMPLES, StreamingEventSchema,
  errorResponses, rolesOf, type RouteContract,
} from '@parley/shared';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

function parameters(contract: RouteContract): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [['path', contract.params], ['query', contract.query]] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...propertySchema } = property;
      list.push({
        name, in: where, required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}), schema: propertySchema,
        ...(where === 'query' && (propertySchema.anyOf !== undefined) ? { explode: true } : {}),
      });
    }
  }
  return list;
}

function requestBody(contract: RouteContract): JsonSchema | undefined {
  if (!contract.body) return undefined;
  const contentType = contract.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json';
  const example = REQUEST_EXAMPLES[contract.operationId];
  const variants = REQUEST_EXAMPLE_VARIANTS[contract.operationId];
  // `example` and `examples` exclude each other (OpenAPI 3.1 § 4.8.14): with variants, the default is one of the named ones.
  const examples = variants && example !== undefined ? { examples: { default: { summary: 'As the contract describes it', value: example }, ...variants } } : undefined;
  const shown = examples ?? (example !== undefined ? { example } : {});
  return { required: true, content: { [contentType]: { schema: toSchema(contract.body, 'input'), ...shown } } };
}

const EVENT_STREAM = 'text/event-stream';

function responses(contract: RouteContract): JsonSchema {
  const out: JsonSchema = {};
  for (const [status, response] of Object.entries(contract.responses)) {
    const contentType = response.contentType ?? (response.schema ? 'application/json' : undefined);
    // An event stream's schema is that of one event (the JSON of each `data:` line).
    const schema = response.schema ?? (contentType === EVENT_STREAM ? StreamingEventSchema : undefined);
    out[status] = {
      description: response.description,
      ...(contentType ? { content: { [contentType]: schema ? { schema: toSchema(schema, 'output') } : {} } } : {}),
    };
  }
  return out;
}

/** A route some member roles may not call answers them 403; documented where the contract has no 403 of its own. */
function withRoleRefusal(contract: RouteContract): RouteContract {
  if (contract.security !== 'apiKey' || rolesOf(contract).length === ANY_ROLE.length || contract.responses[403]) return contract;
  const refusal = { ...errorResponses(403)[403]!, description: `Forbidden: a member whose role is not ${rolesOf(contract).join(' or ')}.` };
  return { ...contract, responses: { ...contract.responses, 403: refusal } };
}

function security(contract: RouteContract): JsonSchema[] {
  if (contract.security === 'apiKey') return [{ apiKey: [] }, { consoleSession: [] }];
  if (contract.security === 'embed') return [{}, { visitorSession: [] }];
  return [];
}

/** The OpenAPI 3.1 document of every operation, generated from the shared route contracts. */
export function buildOpenApiDocument(serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const contract of ALL_ROUTES) {
    const body = requestBody(contract);
    const params = parameters(contract);
    (paths[contract.path] ??= {})[contract.method] = {
      operationId: contract.operationId,
      tags: [contract.tag],
      summary: contract.summary,
      ...(contract.description ? { description: contract.description } : {}),
      ...(params.length ? { parameters: params } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: responses(withRoleRefusal(contract)),
      security: security(contract),
      // Extension: the member roles that may call the operation (API keys may call all).
      ...(contract.security === 'apiKey' ? { 'x-roles': [...rolesOf(contract)] } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parley API',
      version: '1.0.0',
      description: 'Chatbots that answer from your own knowledge. Every /v1 call needs `x-api-key`, except the public embed endpoints. Errors are `{statusCode, message: string[], error}`; 429 has no body.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        consoleSession: {
          type: 'apiKey', in: 'cookie', name: 'parley_session',
          description: 'The owner console\'s session from POST /v1/session; POST, PUT and DELETE also need `x-csrf-token`.',
        },
        visitorSession: { type: 'http', scheme: 'bearer', description: 'A PRIVATE chatbot\'s visitor token from POST /v1/embed/{chatbotId}/session.' },
      },
    },
    paths,
    // What the service sends to webhook endpoints (extension): Standard Webhooks headers, one body per event.
    webhooks: Object.fromEntries(NOTIFICATION_EVENT_TYPES.map((type) => [type, {
      post: {
        summary: NOTIFICATION_EVENT_DATA[type].summary,
        description: 'Signed with the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (see `POST /v1/webhook`).',
        requestBody: { required: true, content: { 'application/json': { schema: toSchema(notificationEventBodySchema(type), 'output') } } },
        responses: { '2XX': { description: 'Delivered. 408, 429 and 5xx are retried; any other status is final.' } },
      },
    }])),
  };
}
