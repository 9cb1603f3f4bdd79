// How the server is compiled: esbuild bundles our own TypeScript (server/src and the shared
// contracts) into plain ES modules with source maps; packages stay in node_modules. build.mjs
// builds `npm start`'s server with it, and benchmarks that measure what production runs build
// their entry points with the same options.

/** esbuild options for server code; the caller adds entryPoints and outdir. */
export const serverBundleOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [{
    name: 'external-packages',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[^./]/ }, (resolve) => (resolve.path.startsWith('@parley/') ? undefined : { path: resolve.path, external: true }));
    },
  }],
};
