// Vite config for the model explorer (web/model.html), built beside the
// broadcast explorer into dist/explorer/ (scripts/web.mjs runs it second, so
// emptyOutDir is off). Here `tensorcast` is the model entry, dist/tensorcast-model.js
// (symbolic dims, inferShapes, on tensorcast-shapes.wasm): the page and its
// worker never load the full engine. align.js, shared with the broadcast
// explorer, takes formatShape from whichever `tensorcast` its page has.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const web = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(web, '..');

export default defineConfig({
  root: web,
  base: './',
  publicDir: path.join(web, 'public'),
  logLevel: 'warn',
  resolve: {
    alias: { tensorcast: path.join(root, 'dist', 'tensorcast-model.js') },
  },
  worker: { format: 'es' },
  build: {
    outDir: path.join(root, 'dist', 'explorer'),
    emptyOutDir: false,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: { input: { model: path.join(web, 'model.html') } },
  },
});
