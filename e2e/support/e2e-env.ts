import path from 'node:path';

/** `LOOKOUT_E2E_PORT` lets two checkouts run their e2e suites side by side. */
export const E2E_PORT = Number(process.env.LOOKOUT_E2E_PORT ?? 4180);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** A fresh data directory per run: the service seeds the demo accounts into it. */
export const E2E_DATA_DIR = path.resolve(import.meta.dirname, '../../test-results/e2e-data');
