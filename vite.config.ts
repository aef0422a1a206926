import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

const servicePort = Number(process.env.PORT ?? 8080);
const service = `http://127.0.0.1:${servicePort}`;

export default defineConfig({
  plugins: [
    // The router plugin must run before React's so route files are code-split first.
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Without this, a page loaded 40 to 60 files of a few hundred bytes each (86 chunks in
    // all): over HTTP/1.1 they queued six at a time behind the page's first reads. Common
    // chunks under 24 KB are inlined into the chunks that use them (35 chunks; about 1 KB
    // gzip more per route), which needs entry signatures the router does not use.
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          experimentalInlineCommonChunks: { maxSize: 24 * 1024 },
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: service, ws: true },
      '/v1': { target: service },
      '/healthz': { target: service },
    },
  },
});
