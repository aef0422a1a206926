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
  },
  server: {
    proxy: {
      '/api': { target: service, ws: true },
      '/v1': { target: service },
      '/healthz': { target: service },
    },
  },
});
