import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TelemetryConfig } from '../core/config';
import { raw } from '../store/rows/sql';
import { openClickHouse, type ChDb } from '../store/telemetry/clickhouse/clickhouse-db';
import { embeddedEngineUsers } from '../store/telemetry/clickhouse/embedded-engine';

type ClickHouseTelemetry = Extract<TelemetryConfig, { engine: 'clickhouse' }>;

/**
 * Whether test services keep telemetry in ClickHouse: all but the PostgreSQL-only suite, and
 * with LOOKOUT_TEST_TELEMETRY=clickhouse beside PostgreSQL state too (`npm run test:pg` runs a
 * selection so).
 */
export const testsOnClickHouse = (): boolean =>
  !process.env.LOOKOUT_TEST_DATABASE_URL?.trim() ||
  process.env.LOOKOUT_TEST_TELEMETRY === 'clickhouse';

/**
 * Where test services keep telemetry: ClickHouse, as the default deployment does, each test
 * service in a database of its own, on the server at `CLICKHOUSE_URL` (`npm run
 * test:clickhouse`) or on the engine in this process. The embedded engine binds one data
 * directory per process, so every service of a test process shares this process's directory
 * and keeps apart by database name. Null on PostgreSQL (`npm run test:pg`): its own telemetry.
 */
export function testTelemetry(): ClickHouseTelemetry | null {
  return testsOnClickHouse() ? clickhouseTestTelemetry() : null;
}

/** A database of its own on ClickHouse (`CLICKHOUSE_URL`, else this process's engine). */
export function clickhouseTestTelemetry(): ClickHouseTelemetry {
  return {
    engine: 'clickhouse',
    url: process.env.CLICKHOUSE_URL?.trim() || null,
    database: `lookout_t_${randomBytes(6).toString('hex')}`,
    embeddedPath: processEnginePath(),
  };
}

let enginePath: string | null = null;

/** This process's directory for the embedded engine, removed when the process exits. */
export function processEnginePath(): string {
  if (enginePath) return enginePath;
  const dir = path.join(os.tmpdir(), 'lookout-test-clickhouse', String(process.pid));
  enginePath = dir;
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `fn` on a test service's ClickHouse database (opened for the call when `open` is null). */
export async function withClickHouse<T>(
  target: ClickHouseTelemetry,
  open: ChDb | null,
  fn: (db: ChDb) => Promise<T>,
): Promise<T> {
  if (open) return fn(open);
  const db = await openClickHouse(target);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * Drops a test service's database (after the service closed); once no service of this
 * process uses the embedded engine, its directory goes too (test processes are often ended
 * without an `exit` event, which would leave it behind).
 */
export async function dropTestTelemetry(target: TelemetryConfig): Promise<void> {
  if (target.engine !== 'clickhouse') return;
  await withClickHouse(target, null, (db) =>
    db.command(raw(`DROP DATABASE IF EXISTS ${db.database}`)),
  );
  // The engine's own threads may still be finishing files there: a temporary directory whose
  // removal is retried, and left to the process's exit if it still fails.
  if (target.url === null && embeddedEngineUsers() === 0)
    try {
      fs.rmSync(target.embeddedPath, {
        recursive: true,
        force: true,
        maxRetries: 5,
        retryDelay: 100,
      });
    } catch {
      // Removed at exit (processEnginePath).
    }
}
