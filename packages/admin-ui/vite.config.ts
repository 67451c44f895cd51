import { defineConfig } from 'vite';

// Served by the gateway at /admin; the CSP there allows only same-origin scripts and styles,
// so everything is bundled into files (no inline script or style, no external resource).
export default defineConfig({
  base: '/admin/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
