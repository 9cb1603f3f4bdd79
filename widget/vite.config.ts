import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { wireSchemasPlugin } from './scripts/wire-schemas-plugin.mjs';

const locales = Object.fromEntries(readdirSync('src/i18n/locales')
  .filter((file) => file.endsWith('.ts'))
  .map((file) => [`locale-${path.basename(file, '.ts')}`, `src/i18n/locales/${file}`]));

/**
 * Writes the hashed names of the lazily loaded files into widget.js (see
 * src/internal/widget-defaults.ts): widget.js keeps its fixed name, which site owners paste,
 * while everything it loads later is content-addressed and cached forever.
 */
function chunkManifest(): Plugin {
  return {
    name: 'parley-chunk-manifest',
    generateBundle(_options, bundle) {
      const map: Record<string, string> = {};
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk' && file.isEntry && file.name !== 'widget') map[file.name] = file.fileName;
      }
      const loader = bundle['widget.js'];
      if (loader?.type !== 'chunk') return;
      const placeholder = /(["'`])__PARLEY_CHUNKS__\1/;
      if (!placeholder.test(loader.code)) this.error('widget.js lost the __PARLEY_CHUNKS__ placeholder');
      loader.code = loader.code.replace(placeholder, JSON.stringify(JSON.stringify(map)));
    },
  };
}

/**
 * Collapses the indentation inside template literals (Lit's css`` and html``), which the
 * minifier keeps verbatim. After minification every remaining line break followed by indentation
 * is inside a template literal, where CSS and HTML read one space the same as a newline and spaces.
 * The stylesheets' prose comments (`/* Phones and short windows … *\/`) go too: they explain the
 * source, and every visitor downloaded them. Annotations (`/* @__PURE__ *\/`) start with `@` and stay.
 */
function collapseTemplateWhitespace(): Plugin {
  return {
    name: 'parley-collapse-template-whitespace',
    renderChunk: (code) => ({ code: code.replace(/\n[ \t]+/g, ' ').replace(/\/\* (?!@)[^*]*(?:\*(?!\/)[^*]*)*\*\/ ?/g, ''), map: null }),
  };
}

/** Brotli and gzip copies of every script, so the server sends them compressed without work per request. */
function precompress(): Plugin {
  return {
    name: 'parley-precompress',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(Object.values(bundle).filter((file) => file.type === 'chunk').flatMap((file) => {
        const code = Buffer.from((file as { code: string }).code);
        const target = path.join(dir, file.fileName);
        return [
          writeFile(`${target}.br`, brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })),
          writeFile(`${target}.gz`, gzipSync(code, { level: 9 })),
        ];
      }));
    },
  };
}

/**
 * One script for the site owner's `<script src=".../widget.js" async>` tag, plus the files it
 * loads on demand: the emoji list, live handoff and one file per language. widget.js is an ES build with no
 * exports and no `import.meta`, so it runs as a classic script; it imports the others by
 * absolute URL, so the entries share no code and no chunk.
 */
export default defineConfig({
  plugins: [wireSchemasPlugin(), collapseTemplateWhitespace(), chunkManifest(), precompress()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    minify: true,
    lib: {
      entry: { widget: 'src/embed.ts', emoji: 'src/lazy/emoji-data.ts', live: 'src/lazy/live-handoff.ts', ...locales },
      formats: ['es'],
      fileName: (_format, name) => (name === 'widget' ? 'widget.js' : `widget-${name}.[hash].js`),
    },
    rollupOptions: {
      // Vite keeps whitespace in ES library builds; this is the script a visitor downloads, so minify it fully.
      output: { chunkFileNames: 'widget-[name].[hash].js', minify: true },
    },
  },
});
