import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    // Vitest's default is one worker on a 2-core machine; server tests mostly wait on the
    // embedded ClickHouse engine, sockets and child services, so three overlap that waiting.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          // Test services keep telemetry in the embedded ClickHouse engine: a test that writes
          // and reads several batches takes seconds on a loaded 2-core machine.
          testTimeout: 20_000,
          hookTimeout: 30_000,
          // Files share a worker's modules instead of loading the whole service again each:
          // importing it was a third of the suite's time. Services are built per test with
          // their own stores, and module state is keyed by store (tested both ways).
          isolate: false,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'console',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test-setup.ts'],
        },
      },
    ],
  },
});
