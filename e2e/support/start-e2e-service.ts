/** Starts the real service for the e2e run: clean data directory, demo seed, built console. */
import fs from 'node:fs';
import { readConfig } from '../../server/core/config';
import { listen } from '../../server/listen';
import { createService } from '../../server/service';
import { E2E_DATA_DIR, E2E_PORT } from './e2e-env';

if (!fs.existsSync('dist/index.html')) {
  process.stderr.write('dist/index.html is missing: run `npm run build` before the e2e tests.\n');
  process.exit(1);
}
fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });

/** The settings of these names the run was given. */
function pick(names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.flatMap((n) => (process.env[n] ? [[n, process.env[n]] as const] : [])),
  );
}

const config = readConfig({
  PORT: String(E2E_PORT),
  HOST: '127.0.0.1',
  LOOKOUT_DATA_DIR: E2E_DATA_DIR,
  LOOKOUT_DEMO: '1',
  // A small world: enough of every kind for the pages, seeded in a second or two.
  LOOKOUT_DEMO_SCALE: '0.05',
  LOOKOUT_STATIC_DIR: 'dist',
  LOOKOUT_LOG_LEVEL: 'error',
  // The telemetry tier as configured (default: the embedded ClickHouse engine).
  ...pick(['LOOKOUT_TELEMETRY', 'CLICKHOUSE_URL', 'CLICKHOUSE_DATABASE']),
});
// Each step on stderr, which Playwright shows: a start that outlasts its timeout says where
// it stood (a CI run once timed out here with nothing to go on).
const startedAt = performance.now();
const step = (what: string) =>
  process.stderr.write(
    `e2e service: ${what} (${((performance.now() - startedAt) / 1000).toFixed(1)} s)\n`,
  );
step('opening storage and seeding the demo world');
const { app } = await createService(config);
step('seeded');
await listen(app, config.port, config.host);
step(`listening on ${config.host}:${String(config.port)}`);
