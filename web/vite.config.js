// Vite config for the broadcast explorer (web/). The page imports the library
// as `tensorcast`, aliased to the built browser entry in dist/ (scripts/build.mjs
// makes it); engine.js's `new URL('./tensorcast.wasm', import.meta.url)` makes Vite
// emit the .wasm as an asset beside the bundle. base './': every URL in the
// page is relative, so the built folder (dist/explorer, shipped in the npm
// package) works from any path of any static host.
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
  // The page calls no Tensor method: the two modules that add them to Tensor.prototype
  // (side effects in package.json, which apps need) are left out of the page.
  plugins: [{
    name: 'no-tensor-methods',
    transform: (code, id) => (/[\\/]dist[\\/](layout|reshape)\.js$/.test(id) ? { code, moduleSideEffects: false } : null),
  }],
  resolve: {
    alias: { tensorcast: path.join(root, 'dist', 'index.js') },
  },
  build: {
    outDir: path.join(root, 'dist', 'explorer'),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0, // never inline the .wasm as a data: URL
    modulePreload: { polyfill: false }, // no inline or injected scripts: the CSP allows 'self' only
    reportCompressedSize: false,
  },
});
