/**
 * The service as benchmarks see it: its own process (so the load generator does not share
 * its event loop), a temporary data directory, the demo accounts, and no rate limit or
 * quota in the way. Prints one JSON line `{port, dir}` once it accepts requests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testConfig } from '../server/core/config';
import { listen } from '../server/listen';
import { createService } from '../server/service';

const dir =
  process.env.LOOKOUT_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-bench-'));
const unlimited = {
  issue_events: 1e12,
  trace_spans: 1e12,
  log_bytes: 1e15,
  metric_bytes: 1e15,
  retention_days: 30,
};
const service = await createService(
  testConfig(dir, {
    demo: true,
    // Browser benchmarks of whole pages open them on the demo world as `npm start` seeds it.
    demoScale: Number(process.env.LOOKOUT_DEMO_SCALE ?? 0),
    // bench/store-comparison.ts runs the same service on PostgreSQL.
    databaseUrl: process.env.DATABASE_URL || null,
    // LOOKOUT_TELEMETRY=clickhouse: logs on ClickHouse (embedded, or CLICKHOUSE_URL).
    telemetry:
      process.env.LOOKOUT_TELEMETRY === 'clickhouse'
        ? {
            engine: 'clickhouse',
            url: process.env.CLICKHOUSE_URL || null,
            database: 'lookout',
            embeddedPath: path.join(dir, 'clickhouse'),
          }
        : { engine: 'state' },
    ingestRate: { perSecond: 1e9, burst: 1e9 },
    planQuotas: { free: unlimited, pro: unlimited, scale: unlimited },
    // Browser benchmarks serve the built console from the same origin.
    staticDir: process.env.LOOKOUT_STATIC_DIR ? path.resolve(process.env.LOOKOUT_STATIC_DIR) : null,
  }),
);
const running = await listen(service.app, 0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ port: running.port, dir })}\n`);
process.on('SIGTERM', () => {
  void running
    .close()
    .then(() => service.store.close())
    .then(() => process.exit(0));
});
