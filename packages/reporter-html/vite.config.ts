import { defineConfig } from 'vite';

// The page is one script and one stylesheet that the reporter inlines into report.html and the
// dashboard serves inside its page: an IIFE, so it runs from file:// without module loading.
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    cssCodeSplit: false,
    lib: {
      entry: 'main.tsx',
      formats: ['iife'],
      name: 'sutureReport',
      fileName: () => 'app.js',
      cssFileName: 'app',
    },
  },
});
