/**
 * A JSON Schema (draft 2020-12) as `z.toJSONSchema` writes the shared wire schemas, limited to
 * the keywords `matches` checks. The build refuses a wire schema that needs any other
 * (scripts/wire-schemas.ts), so nothing the server's schema checks is skipped here.
 */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: false;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
}

/** The keywords `matches` understands. */
export const CHECKED_KEYWORDS: readonly (keyof JsonSchema)[] = [
  'type', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems', 'minLength', 'maxLength',
  'pattern', 'minimum', 'maximum', 'enum', 'const', 'oneOf',
];

type Value = Record<string, unknown>;

const IS_TYPE: Record<NonNullable<JsonSchema['type']>, (value: unknown) => boolean> = {
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  array: Array.isArray,
  string: (value) => typeof value === 'string',
  // zod's number() refuses NaN and ±Infinity, its int() fractions and integers past 2^53 (the
  // generator leaves out the minimum and maximum that say so).
  number: Number.isFinite,
  integer: Number.isSafeInteger,
  boolean: (value) => typeof value === 'boolean',
};

/** Whether every own property of an object matches the schema's, required ones present. */
function matchesObject(schema: JsonSchema, value: Value): boolean {
  const properties = schema.properties ?? {};
  // As zod does: an optional property may be present with the value undefined, a required one may not.
  return (schema.required ?? []).every((key) => Object.hasOwn(value, key) && value[key] !== undefined)
    && Object.entries(value).every(([key, item]) => (Object.hasOwn(properties, key)
      ? item === undefined || matches(properties[key]!, item)
      : schema.additionalProperties !== false));
}

/**
 * Whether a value satisfies the schema, with zod's semantics where JSON Schema leaves a choice:
 * string lengths count UTF-16 code units (`String.length`) and patterns are tested without flags.
 */
export function matches(schema: JsonSchema, value: unknown): boolean {
  const { type, oneOf } = schema;
  if (oneOf && oneOf.filter((branch) => matches(branch, value)).length !== 1) return false;
  if ('const' in schema && value !== schema.const) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (type && !IS_TYPE[type](value)) return false;
  if (typeof value === 'string') {
    return value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity)
      && (schema.pattern === undefined || new RegExp(schema.pattern).test(value));
  }
  if (typeof value === 'number') {
    return value >= (schema.minimum ?? -Infinity) && value <= (schema.maximum ?? Infinity);
  }
  if (Array.isArray(value)) {
    const { items } = schema;
    return value.length >= (schema.minItems ?? 0) && value.length <= (schema.maxItems ?? Infinity)
      && (!items || value.every((item) => matches(items, item)));
  }
  return type !== 'object' || matchesObject(schema, value as Value);
}
