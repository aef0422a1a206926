import { afterEach, describe, expect, it } from 'vitest';
import {
  clickhouseTestTelemetry,
  dropTestTelemetry,
  testsOnClickHouse,
} from '../../../test-support/test-clickhouse';
import { raw, sql } from '../../rows/sql';
import { openClickHouse, type ChDb } from './clickhouse-db';
import { clickhouseMigrations, migrateClickHouse } from './clickhouse-migrations';
import { LEDGER_VIEWS, LOGS, SINGLE, createTable, rebuildTable } from './clickhouse-schema';

const REBUILT_AT = 4;
const LEDGER_VIEWS_AT = 5;

const telemetry = clickhouseTestTelemetry();
let db: ChDb | null = null;

afterEach(async () => {
  await db?.close();
  db = null;
  await dropTestTelemetry(telemetry);
});

const logRows = (from: number, n: number, region: string) =>
  Array.from({ length: n }, (_, i) => ({
    project_id: 'p1',
    occurred_at: 1_790_000_000_000 + (from + i) * 1000,
    id: `log-${String(from + i)}`,
    message: `message ${String(from + i)}`,
    attributes: '{}',
    attr_string: { '/region': region },
  }));

const count = async (d: ChDb, q: string) =>
  (await d.one<{ n: number }>(raw(`SELECT toUInt64(count()) AS n FROM ${q}`)))?.n ?? -1;

const valueHoursOf = async (d: ChDb, value: string) =>
  (
    await d.one<{ n: number }>(
      sql`SELECT toUInt64(sum(logs)) AS n FROM log_value_hours WHERE value = ${value}`,
    )
  )?.n ?? -1;

describe.skipIf(!testsOnClickHouse())('ClickHouse migration 4: logs in granules of 1,024', () => {
  it('rebuilds an older store with every log kept, and views still fed', async () => {
    const d = await openClickHouse(telemetry);
    db = d;
    await migrateClickHouse(d, REBUILT_AT - 1);
    // A store from before migration 4: its logs in granules of 8,192 rows.
    for (const statement of createTable({ ...LOGS, name: 'logs_old', settings: {} }, SINGLE))
      await d.command(raw(statement));
    await d.command(raw('EXCHANGE TABLES logs AND logs_old'));
    await d.command(raw('DROP TABLE logs_old'));
    await d.insertRows('logs', logRows(0, 3000, 'eu'), 'before');

    expect(await migrateClickHouse(d, REBUILT_AT)).toEqual({
      from: REBUILT_AT - 1,
      to: REBUILT_AT,
    });

    expect(await count(d, 'logs')).toBe(3000);
    const table = await d.one<{ engine_full: string }>(
      sql`SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = 'logs'`,
    );
    expect(table?.engine_full).toContain('index_granularity = 1024');
    expect(
      await count(d, `system.tables WHERE database = currentDatabase() AND name = 'logs_rebuild'`),
    ).toBe(0);
    // The value-hours view follows the table's name: new logs still reach it.
    await d.insertRows('logs', logRows(3000, 10, 'us'), 'after');
    expect(await valueHoursOf(d, 'us')).toBe(10);
    expect(await valueHoursOf(d, 'eu')).toBe(3000);
  });

  it('ends the same when run again after a crash before it was recorded', async () => {
    const d = await openClickHouse(telemetry);
    db = d;
    await migrateClickHouse(d);
    await d.insertRows('logs', logRows(0, 500, 'eu'), 'first');
    // The rebuild ran (or half ran) but its version was never recorded: it runs again.
    for (const statement of rebuildTable(LOGS, SINGLE).slice(0, 3)) await d.command(raw(statement));
    for (const statement of rebuildTable(LOGS, SINGLE)) await d.command(raw(statement));
    expect(await count(d, 'logs')).toBe(500);
    expect(await valueHoursOf(d, 'eu')).toBe(500);
  });

  it('renders nothing for a cluster, whose schema is created with the settings already', () => {
    expect(rebuildTable(LOGS, { cluster: 'lookout' })).toEqual([]);
    expect(clickhouseMigrations[REBUILT_AT - 1]?.({ cluster: 'lookout' })).toEqual([]);
    expect(createTable(LOGS, { cluster: 'lookout' })[0]).toContain('index_granularity = 1024');
  });
});

describe.skipIf(!testsOnClickHouse())('ClickHouse migration 5: the id ledger fed by views', () => {
  const ledgerOf = async (d: ChDb) =>
    (
      await d.rows<{ kind: string; id: string }>(
        sql`SELECT toString(kind) AS kind, id FROM accepted_ids ORDER BY kind, id`,
      )
    ).map((r) => `${r.kind}:${r.id}`);

  it("keeps the ids an older store sent, and adds each new row's id once", async () => {
    const d = await openClickHouse(telemetry);
    db = d;
    await migrateClickHouse(d, LEDGER_VIEWS_AT - 1);
    // Before migration 5 the service sent the ledger's rows itself.
    await d.insertRows('logs', logRows(0, 2, 'eu'), 'old');
    await d.insertRows(
      'accepted_ids',
      ['log-0', 'log-1'].map((id) => ({ project_id: 'p1', kind: 'log', id, occurred_at: 0 })),
      'old-ledger',
    );

    expect(await migrateClickHouse(d)).toEqual({ from: LEDGER_VIEWS_AT - 1, to: LEDGER_VIEWS_AT });

    await d.insertRows('logs', logRows(2, 2, 'eu'), 'new');
    // A retried insert (the same token) is skipped, its ledger rows with it.
    await d.insertRows('logs', logRows(2, 2, 'eu'), 'new');
    const span = { project_id: 'p1', trace_id: 't1', started_at: 1, span_id: 's1' };
    await d.insertRows('spans', [{ ...span, id: 'span-0' }], 'spans');
    await d.insertRows(
      'metric_samples',
      [{ project_id: 'p1', name: 'm', occurred_at: 1, id: 'sample-0', event_id: 'event-0' }],
      'metrics',
    );
    expect(await ledgerOf(d)).toEqual([
      'log:log-0',
      'log:log-1',
      'log:log-2',
      'log:log-3',
      // A metric sample is known by the event id sent, not its own.
      'metric:event-0',
      'span:span-0',
    ]);
  });

  it('renders views on the local tables of a cluster', () => {
    const ddl = clickhouseMigrations[LEDGER_VIEWS_AT - 1]?.({ cluster: 'lookout' }) ?? [];
    expect(ddl).toHaveLength(LEDGER_VIEWS.length);
    expect(ddl[0]).toContain("ON CLUSTER 'lookout'");
    expect(ddl[0]).toContain('TO accepted_ids_local');
    expect(ddl[0]).toContain('FROM logs_local');
  });
});
