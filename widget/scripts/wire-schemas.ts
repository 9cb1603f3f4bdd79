// The shared zod schemas of what the server answers the widget, turned into JSON Schema at build
// time: zod itself, even zod/mini, would add about 8 kB gzip, a third of the widget's 25 kB
// budget. src/api/validate.ts checks every answer against these with src/api/json-schema.ts, so a
// change to a shared schema reaches the widget with the next build and never needs copying.
// Loaded by scripts/wire-schemas-plugin.mjs for Vite and for the component tests.
import {
  EmbedConfigSchema, EmbedConversationSchema, EmbedSessionSchema, ErrorBodySchema, FeedbackSchema, LeadSchema, StreamingEventSchema,
} from '@parley/shared';
import { z } from 'zod';
import { CHECKED_KEYWORDS, type JsonSchema } from '../src/api/json-schema.js';

const WIRE_SCHEMAS = {
  EmbedConfigSchema, EmbedConversationSchema, EmbedSessionSchema, ErrorBodySchema, FeedbackSchema, LeadSchema, StreamingEventSchema,
};
/** The name of a shared schema the widget checks answers with. */
export type WireSchemaName = keyof typeof WIRE_SCHEMAS;

/** Kinds of zod schema whose JSON Schema says all that their `safeParse` accepts. */
const EXACT_TYPES = new Set(['object', 'string', 'number', 'boolean', 'array', 'enum', 'literal', 'optional', 'union']);
/**
 * zod checks that become JSON Schema keywords. Not `custom` (refine), which z.toJSONSchema drops
 * silently, nor `overwrite` (trim, toLowerCase), which changes the value before later checks.
 */
const EXACT_CHECKS = new Set(['less_than', 'greater_than', 'min_length', 'max_length', 'length_equals', 'number_format', 'string_format']);
/** z.int()'s bounds, which `matches` knows from `type: 'integer'` alone. */
const SAFE_RANGE: Record<string, number> = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
/** Keywords that describe without constraining. */
const ANNOTATIONS = new Set(['$schema', 'description']);

/** Throws when the JSON Schema of a zod schema would accept something its safeParse refuses. */
function assertExact({ zodSchema, path }: { zodSchema: z.core.$ZodTypes; path: (string | number)[] }, name: string): void {
  const where = `${name} at /${path.join('/')}`;
  const { def } = zodSchema._zod;
  if (!EXACT_TYPES.has(def.type)) throw new Error(`${where}: the widget cannot check a zod ${def.type}`);
  // A format schema (z.int(), z.email()) is its own first check.
  const checks = [...('check' in def ? [zodSchema as z.core.$ZodCheck] : []), ...(def.checks ?? [])];
  for (const check of checks) {
    const def = check._zod.def as { check: string; format?: string; pattern?: RegExp };
    const exact = EXACT_CHECKS.has(def.check)
      && (def.check !== 'string_format' || (def.format === 'regex' && def.pattern?.flags === ''));
    if (!exact) throw new Error(`${where}: the widget cannot check a zod ${def.check} ${def.format ?? ''} check`);
  }
}

/** The schema without annotations; throws on a keyword `matches` does not check. */
function toCheckable(json: Record<string, unknown>, where: string): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(json)) {
    if (ANNOTATIONS.has(keyword) || (json.type === 'integer' && SAFE_RANGE[keyword] === value)) continue;
    if (!CHECKED_KEYWORDS.includes(keyword as keyof JsonSchema) || (keyword === 'additionalProperties' && value !== false)
      || (keyword === 'type' && typeof value !== 'string')) {
      throw new Error(`${where}: the widget cannot check ${keyword}: ${JSON.stringify(value)}`);
    }
    const nested = (schema: unknown, at: string | number) => toCheckable(schema as Record<string, unknown>, `${where}/${keyword}/${at}`);
    if (keyword === 'properties') {
      out[keyword] = Object.fromEntries(Object.entries(value as object).map(([key, schema]) => [key, nested(schema, key)]));
    } else if (keyword === 'items') out[keyword] = nested(value, '');
    else if (keyword === 'oneOf') out[keyword] = (value as unknown[]).map(nested);
    else out[keyword] = value;
  }
  return out as JsonSchema;
}

/**
 * The JSON Schema of a zod schema: what its `safeParse` accepts (`io: 'input'`: z.object's
 * unknown keys are allowed, z.strictObject's refused), in the keywords `matches` checks.
 * @throws Error when the schema uses something `matches` cannot check exactly.
 */
export function toCheckableSchema(name: string, schema: z.core.$ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', reused: 'inline', override: (context) => assertExact(context, name) });
  return toCheckable(json as Record<string, unknown>, name);
}

/** The JSON Schema of every shared schema the widget checks answers with. */
export function wireSchemas(): Record<WireSchemaName, JsonSchema> {
  return Object.fromEntries(Object.entries(WIRE_SCHEMAS).map(([name, schema]) => [name, toCheckableSchema(name, schema)])) as
    Record<WireSchemaName, JsonSchema>;
}

/** The source of the `virtual:parley-wire-schemas` module. */
export function wireSchemasModule(): string {
  return `export const wireSchemas = ${JSON.stringify(wireSchemas())};\n`;
}
