import { defineConfig } from 'vite';

/**
 * One script for the site owner's `<script src=".../widget.js" async>` tag, plus lazy chunks.
 * The entry is an ES-module build with no exports and no `import.meta`, so it also runs as a
 * classic script; its only dynamic `import()` (the emoji picker) resolves against the script's URL.
 */
export default defineConfig({
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    minify: true,
    lib: { entry: 'src/embed.ts', formats: ['es'], fileName: () => 'widget.js' },
    rollupOptions: {
      // Vite keeps whitespace in ES library builds; this is the script a visitor downloads, so minify it fully.
      output: { chunkFileNames: 'widget-[name]-[hash].js', minify: true },
    },
  },
});
