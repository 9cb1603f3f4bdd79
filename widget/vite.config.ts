import { defineConfig } from 'vite';

/**
 * One script for the site owner's `<script src=".../widget.js" async>` tag, plus the emoji list
 * loaded on demand (widget-emoji.js). widget.js is an ES build with no exports and no
 * `import.meta`, so it runs as a classic script; it imports widget-emoji.js by absolute URL
 * (see src/internal/widget-defaults.ts), so the two entries share no code and no chunk.
 */
export default defineConfig({
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    minify: true,
    lib: {
      entry: { widget: 'src/embed.ts', 'widget-emoji': 'src/lazy/emoji-data.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      // Vite keeps whitespace in ES library builds; this is the script a visitor downloads, so minify it fully.
      output: { chunkFileNames: 'widget-[name]-[hash].js', minify: true },
    },
  },
});
