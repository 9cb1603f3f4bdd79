import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/** Brotli and gzip copies of every hashed script and stylesheet: the server sends them without compressing per request. */
function compressedCopies(): Plugin {
  return {
    name: 'parley-console-compressed-copies',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const writes = Object.values(bundle).filter((file) => /\.(js|css)$/.test(file.fileName)).flatMap((file) => {
        const content = Buffer.from(file.type === 'chunk' ? file.code : file.source);
        const target = path.join(dir, file.fileName);
        return [
          writeFile(`${target}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })),
          writeFile(`${target}.gz`, gzipSync(content, { level: 9 })),
        ];
      });
      await Promise.all(writes);
    },
  };
}

/**
 * The owner console: index.html (served at / and /console/…) and content-hashed files under
 * /console-assets/, one lazily loaded chunk per page.
 */
export default defineConfig({
  plugins: [compressedCopies()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'console-assets',
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod and its configuration in one chunk: every chunk that builds schemas loads it first,
          // so `jitless` is set before any schema is built (zod-jitless.ts), however pages share code.
          groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]zod-jitless\.ts$/ }],
        },
      },
    },
  },
});
