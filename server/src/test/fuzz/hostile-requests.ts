import type { RouteContract } from '@parley/shared';
import { z } from 'zod';
import type { RawRequest } from '../raw-http.js';
import { deepJson, HOSTILE_PATH_SEGMENTS, HOSTILE_STRINGS, HOSTILE_VALUES, percentEncodeBytes, type Random } from './hostile-values.js';

/** What the generator may use: real ids of the fuzzed organisation and its credentials. */
export interface FuzzTargets {
  apiKey: string;
  chatbotId: string;
  resourceId: string;
}

interface JsonSchemaNode { type?: string | string[]; properties?: Record<string, JsonSchemaNode>; items?: JsonSchemaNode; anyOf?: JsonSchemaNode[] }

/** The top-level fields of a route's body or query schema, with their JSON types (from the shared schema). */
function fieldsOf(schema: z.ZodType | undefined): [string, JsonSchemaNode][] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
  const node = json.anyOf?.find((option) => option.properties) ?? json;
  return Object.entries(node.properties ?? {});
}

/** A plausible value for a field, so that a single hostile field is what the server must reject. */
function plausible(name: string, node: JsonSchemaNode, targets: FuzzTargets): unknown {
  if (/^(chatbotId|id)$/.test(name)) return targets.chatbotId;
  if (name === 'resourceId') return targets.resourceId;
  if (name === 'conversation' || name === 'messages') return [{ text: 'What are the opening hours?', fromUser: true }];
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string': return 'fuzz';
    case 'integer': case 'number': return 1;
    case 'boolean': return true;
    case 'array': return [];
    case 'object': return {};
    default: return 'fuzz';
  }
}

function jsonBody(route: RouteContract, random: Random, targets: FuzzTargets): string {
  const fields = fieldsOf(route.body);
  const body: Record<string, unknown> = Object.fromEntries(fields.map(([name, node]) => [name, plausible(name, node, targets)]));
  const [name] = fields.length > 0 ? random.pick(fields) : ['unexpected'];
  switch (random.int(6)) {
    case 0: body[name] = random.pick(HOSTILE_VALUES); break;
    case 1: body[name] = [random.pick(HOSTILE_VALUES), { text: random.pick(HOSTILE_STRINGS), fromUser: random.pick(HOSTILE_VALUES) }]; break;
    case 2: body[name] = { [random.pick(HOSTILE_STRINGS)]: random.pick(HOSTILE_VALUES), nested: { deeper: random.pick(HOSTILE_STRINGS) } }; break;
    case 3: return JSON.stringify(body).replace(/^\{/, '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},');
    case 4: return JSON.stringify(random.pick(HOSTILE_VALUES));
    default: body[random.pick(HOSTILE_STRINGS)] = random.pick(HOSTILE_VALUES);
  }
  return JSON.stringify(body);
}

/** Bodies that are not the JSON they claim to be. */
function brokenBody(random: Random): { body: Buffer | string; contentType?: string; encoding?: string } {
  switch (random.int(9)) {
    case 0: return { body: random.bytes(1 + random.int(2048)), contentType: 'application/json' };
    case 1: return { body: deepJson(2_000 + random.int(100_000), random.pick(['array', 'object'] as const)), contentType: 'application/json' };
    case 2: return { body: `{"text":"${'x'.repeat(1_100_000)}"}`, contentType: 'application/json' };
    case 3: return { body: '{"name": "unterminated', contentType: 'application/json' };
    case 4: return { body: random.bytes(64), contentType: 'application/json', encoding: random.pick(['gzip', 'deflate', 'br', 'x-unknown']) };
    case 5: return { body: '{"name":"x"}', contentType: random.pick(['application/json; charset=utf-32', 'application/json; charset=x-bogus', 'text/plain', '*/*', ';;;']) };
    case 6: return { body: Buffer.from('\ufeff{"name":"x"}', 'utf16le'), contentType: 'application/json; charset=utf-16' };
    case 7: return { body: random.bytes(256), contentType: 'application/x-www-form-urlencoded' };
    default: return { body: '', contentType: 'application/json' };
  }
}

/** Multipart bodies that break the format in every way busboy can see. */
function brokenMultipart(random: Random): { body: Buffer | string; contentType: string } {
  const boundary = 'fuzzboundary';
  const part = (headers: string, content: string | Buffer) => Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
  const fileHeader = () => `Content-Disposition: form-data; name="file"; filename="${random.pick(['../../x.pdf', '..\\x.pdf', 'a.pdf', '', 'x'.repeat(5000)])}"`;
  const end = Buffer.from(`--${boundary}--\r\n`);
  const type = `multipart/form-data; boundary=${boundary}`;
  switch (random.int(8)) {
    case 0: return { body: end, contentType: type };
    case 1: return { body: part(fileHeader(), '%PDF-1.4 x'), contentType: type };
    case 2: return { body: Buffer.concat([part('Content-Disposition: form-data; name="file"', '%PDF-1.4'), end]), contentType: type };
    case 3: return { body: Buffer.concat([part(fileHeader(), random.bytes(512)), end]), contentType: type };
    case 4: return { body: Buffer.concat([part(`Content-Disposition: form-data; name="${random.pick(HOSTILE_STRINGS).slice(0, 50)}"`, random.pick(HOSTILE_STRINGS)), end]), contentType: type };
    case 5: return { body: random.bytes(1024), contentType: type };
    case 6: return { body: Buffer.concat([part('Garbage-Header', 'x'), end]), contentType: random.pick(['multipart/form-data', 'multipart/mixed; boundary=fuzzboundary', 'multipart/form-data; boundary=']) };
    default: return { body: Buffer.concat([...Array.from({ length: 80 }, () => part('Content-Disposition: form-data; name="tags"', random.pick(HOSTILE_STRINGS).slice(0, 100))), end]), contentType: type };
  }
}

function pathFor(route: RouteContract, random: Random, targets: FuzzTargets): string {
  return route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    // A destructive route never gets a real id: the state must survive the run.
    if (route.method === 'delete' || random.int(3) === 0) return random.pick(HOSTILE_PATH_SEGMENTS);
    return name === 'id' && route.path.startsWith('/v1/resource') ? targets.resourceId : targets.chatbotId;
  });
}

function queryFor(route: RouteContract, random: Random): string {
  const names = [...fieldsOf(route.query).map(([name]) => name), '__proto__[polluted]', 'constructor[prototype][x]', 'a[b][c][d]', 'sources'];
  const pairs = Array.from({ length: 1 + random.int(4) }, () => {
    const name = random.pick(names);
    const value = random.int(3) === 0 ? percentEncodeBytes(random.bytes(1 + random.int(64))) : percentEncodeBytes(Buffer.from(random.pick(HOSTILE_STRINGS).slice(0, 2000)));
    return `${random.int(5) === 0 ? percentEncodeBytes(random.bytes(3)) : name}=${random.int(6) === 0 ? '%zz%' : value}`;
  });
  return pairs.join('&');
}

/** Header abuse: bad credentials, forged forwarding, unparseable Origin and Authorization, huge values. */
function headersFor(route: RouteContract, random: Random, targets: FuzzTargets): Record<string, string> {
  const headers: Record<string, string> = route.security === 'apiKey' && random.int(8) !== 0 ? { 'x-api-key': targets.apiKey } : {};
  if (random.int(8) === 0) headers['x-api-key'] = random.pick(['', 'x'.repeat(8000), 'prly_\u00ff', targets.apiKey.slice(0, -1)]);
  if (random.int(4) === 0) headers.origin = random.pick(['http://example.com\\@evil.com', 'null', 'https://evil.example', '://', 'http://[::1', 'x'.repeat(3000)]);
  if (random.int(6) === 0) headers.authorization = random.pick(['Bearer', 'Bearer x.y.z', 'Basic Zm9vOmJhcg==', `Bearer ${'a'.repeat(4000)}`]);
  if (random.int(6) === 0) headers['x-forwarded-for'] = random.pick(['127.0.0.1', '1.2.3.4, 10.0.0.1', 'garbage', '::ffff:10.0.0.1']);
  if (random.int(10) === 0) headers.cookie = random.pick(['parley_session=x', 'parley_session=%', 'a'.repeat(4000), '=;=;=']);
  return headers;
}

/** One generated hostile request for a route of the shared route table. */
export function hostileRequest(route: RouteContract, random: Random, targets: FuzzTargets): RawRequest {
  const query = route.query || random.int(4) === 0 ? `?${queryFor(route, random)}` : '';
  const method = route.security !== 'apiKey' && random.int(10) === 0 ? 'OPTIONS' : route.method.toUpperCase();
  const headers = headersFor(route, random, targets);
  let body: Buffer | string | undefined;
  if (route.bodyType === 'multipart') {
    const multipart = brokenMultipart(random);
    body = multipart.body;
    headers['content-type'] = multipart.contentType;
  } else if (!route.body && random.int(4) === 0) {
    // A route that reads no body answers before the bytes arrive; a large one would be cut by a TCP reset.
    body = random.bytes(1 + random.int(512));
    headers['content-type'] = random.pick(['application/json', 'application/octet-stream', 'text/plain']);
  } else if (route.body) {
    const broken = random.int(3) === 0 ? brokenBody(random) : { body: jsonBody(route, random, targets), contentType: 'application/json' as string | undefined, encoding: undefined };
    body = broken.body;
    if (broken.contentType) headers['content-type'] = broken.contentType;
    if (broken.encoding) headers['content-encoding'] = broken.encoding;
  }
  return { method, path: `${pathFor(route, random, targets)}${query}`, headers, body, timeoutMs: 20_000 };
}
