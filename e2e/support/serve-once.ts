/**
 * Runs one service process for a test that needs its own instance (one it may kill and
 * start again): `PORT` and `LOOKOUT_DATA_DIR` from the environment, demo seed on an empty
 * data directory (or `DATABASE_URL`), the built console from `dist/`; `LOOKOUT_PLAN_QUOTAS`,
 * `LOOKOUT_FEED_HEARTBEAT_SECONDS` and `LOOKOUT_ALERT_EVERY_SECONDS` pass through.
 */
import { readConfig } from '../../server/core/config';
import { listen } from '../../server/listen';
import { createService } from '../../server/service';

const config = readConfig({
  PORT: process.env.PORT,
  HOST: '127.0.0.1',
  LOOKOUT_DATA_DIR: process.env.LOOKOUT_DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL || undefined,
  LOOKOUT_DEMO: '1',
  // Accounts and projects only: the tests that use it send their own telemetry, and a
  // restart must be quick.
  LOOKOUT_DEMO_SCALE: process.env.LOOKOUT_DEMO_SCALE ?? '0',
  LOOKOUT_STATIC_DIR: 'dist',
  LOOKOUT_LOG_LEVEL: 'error',
  LOOKOUT_PLAN_QUOTAS: process.env.LOOKOUT_PLAN_QUOTAS,
  LOOKOUT_FEED_HEARTBEAT_SECONDS: process.env.LOOKOUT_FEED_HEARTBEAT_SECONDS,
  LOOKOUT_ALERT_EVERY_SECONDS: process.env.LOOKOUT_ALERT_EVERY_SECONDS,
});
const { app } = await createService(config);
const listening = await listen(app, config.port, config.host);
// Said only once this process holds the port: the test talks to the port it names, never
// to whatever else answers there (PORT=0 lets the system pick one no other test has).
process.stdout.write(`${JSON.stringify({ port: listening.port })}\n`);
