// Serves `virtual:parley-wire-schemas` (the shared wire schemas as JSON Schema, scripts/wire-schemas.ts)
// to both bundlers of the widget: Vite for the build (resolveId, load) and @web/dev-server for
// the component tests (resolveImport, serve). tsx runs the TypeScript of the generator and of
// @parley/shared, which Node does not load by itself.
import { tsImport } from 'tsx/esm/api';

const ID = 'virtual:parley-wire-schemas';
const RESOLVED = `\0${ID}`;
const SERVED = '/__parley-wire-schemas.js';

/** A plugin for Vite and for @web/dev-server that provides `virtual:parley-wire-schemas`. */
export function wireSchemasPlugin() {
  let source;
  // Generated once per process: a build, or a test run (restart a watching test runner after changing shared).
  const generate = async () => (source ??= (await tsImport('./wire-schemas.ts', import.meta.url)).wireSchemasModule());
  return {
    name: 'parley-wire-schemas',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load: (id) => (id === RESOLVED ? generate() : undefined),
    resolveImport: ({ source: id }) => (id === ID ? SERVED : undefined),
    serve: async (context) => (context.path === SERVED ? { body: await generate(), type: 'js' } : undefined),
  };
}
