/** The shared wire schemas as JSON Schema, generated at build time (scripts/wire-schemas-plugin.mjs). */
declare module 'virtual:parley-wire-schemas' {
  // An ambient module cannot `import type` from a relative path; import() types are the way in.
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  type Names = import('../../scripts/wire-schemas.js').WireSchemaName;
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  type Schema = import('./json-schema.js').JsonSchema;
  export const wireSchemas: Record<Names, Schema>;
}
