import { afterEach, describe, expect, it } from 'vitest';
import { raw } from '../server/store/rows/sql';
import { openClickHouse, type ChDb } from '../server/store/telemetry/clickhouse/clickhouse-db';
import { migrateClickHouse } from '../server/store/telemetry/clickhouse/clickhouse-migrations';
import {
  clickhouseTestTelemetry,
  dropTestTelemetry,
  testsOnClickHouse,
} from '../server/test-support/test-clickhouse';
import { copyLogs, copyLogsByHour } from './log-copies';

const HOUR = 3_600_000;
const START = 1_790_000_000_000 - (1_790_000_000_000 % HOUR);
const telemetry = clickhouseTestTelemetry();
let db: ChDb | null = null;

afterEach(async () => {
  await db?.close();
  db = null;
  await dropTestTelemetry(telemetry);
});

/** A seed of 36-character ids over `hours` hours, `perHour` logs an hour, sent in one batch. */
const seed = (hours: number, perHour: number) =>
  Array.from({ length: hours * perHour }, (_, i) => ({
    project_id: 'p1',
    occurred_at: START + Math.floor(i / perHour) * HOUR + (i % perHour) * 1000,
    id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    message: 'm',
    attributes: '{}',
    attr_string: { '/region': i % 2 ? 'eu' : 'us' },
  }));

const one = async (d: ChDb, q: string) => Number((await d.one<{ n: number }>(raw(q)))?.n ?? -1);

/** What every layout must keep: the same logs, rollups and ledger for the same copies. */
async function contents(d: ChDb) {
  return {
    logs: await one(d, 'SELECT toUInt64(count()) AS n FROM logs'),
    ids: await one(d, 'SELECT toUInt64(uniqExact(id)) AS n FROM logs'),
    times: await one(d, 'SELECT toUInt64(uniqExact(occurred_at)) AS n FROM logs'),
    value_hours: await one(
      d,
      "SELECT toUInt64(sum(logs)) AS n FROM log_value_hours WHERE value = 'eu'",
    ),
    ledger: await one(d, "SELECT toUInt64(count()) AS n FROM accepted_ids WHERE kind = 'log'"),
  };
}

describe.skipIf(!testsOnClickHouse())('copies of the seeded logs', () => {
  it('writes the same logs hour by hour as copy by copy, in parts of separate hours', async () => {
    const d = await openClickHouse(telemetry);
    db = d;
    await migrateClickHouse(d);
    await d.insertRows('logs', seed(4, 50), 'seed');
    await copyLogs(d, 1, 3, () => {});
    const copied = await contents(d);
    expect(copied).toEqual({ logs: 600, ids: 600, times: 600, value_hours: 300, ledger: 600 });

    // Any layout starts from the seed: here the copied store is written again by the hour.
    await d.command(raw('SYSTEM STOP MERGES logs'));
    const hours: number[] = [];
    expect(await copyLogsByHour(d, 3, (done) => hours.push(done))).toBe(4);
    expect(hours).toEqual([1, 2, 3, 4]);
    expect(await contents(d)).toEqual(copied);
    const parts = await d.rows<{ first: number; last: number }>(
      raw(`SELECT toUInt64(toUnixTimestamp(min_time)) * 1000 AS first,
          toUInt64(toUnixTimestamp(max_time)) * 1000 AS last
        FROM system.parts WHERE active AND database = currentDatabase() AND table = 'logs'
        ORDER BY min_time`),
    );
    expect(parts.map((p) => [Number(p.first), Number(p.last) - (Number(p.last) % HOUR)])).toEqual(
      [0, 1, 2, 3].map((h) => [START + h * HOUR, START + h * HOUR]),
    );
    // The seed kept aside while the logs were rewritten is gone.
    expect(
      await one(
        d,
        "SELECT toUInt64(count()) AS n FROM system.tables WHERE database = currentDatabase() AND name = 'bench_log_seed'",
      ),
    ).toBe(0);
  });
});
