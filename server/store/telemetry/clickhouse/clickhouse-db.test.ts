import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickhouseTestTelemetry, dropTestTelemetry } from '../../../test-support/test-clickhouse';
import { sql } from '../../rows/sql';
import { openClickHouse, type ChDb } from './clickhouse-db';

/**
 * Inserts of rows (what ingest writes): stored as sent, lone surrogates as U+FFFD, and the same
 * token again (a retry after a lost answer) adds nothing. On the engine in this process (rows
 * go as bytes) or on CLICKHOUSE_URL (as text).
 */
describe('ClickHouse row inserts', () => {
  const target = clickhouseTestTelemetry();
  let ch: ChDb;

  beforeAll(async () => {
    ch = await openClickHouse(target);
    await ch.command(
      sql`CREATE TABLE t (id String, n Int64, tags Map(String, String)) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100`,
    );
  });

  afterAll(async () => {
    await ch.close();
    await dropTestTelemetry(target);
  });

  it('stores the rows, once per token', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: `r${String(i)}`,
      n: i,
      tags: { 'k\ud800': `grüße 😀 ${'x'.repeat(i % 500)}` },
    }));
    await ch.insertRows('t', rows, 'batch-1.t');
    // The token decides, not the bytes: a retry built again (here: other rows) adds nothing.
    await ch.insertRows('t', rows.slice(1), 'batch-1.t');
    await ch.insertRows('t', [{ id: 'other', n: -1, tags: {} }], 'batch-2.t');
    const stored = await ch.rows<{ c: number; s: number }>(
      sql`SELECT toInt64(count()) AS c, toInt64(sum(n)) AS s FROM t`,
    );
    expect(stored).toEqual([{ c: 3001, s: (2999 * 3000) / 2 - 1 }]);
    const one = await ch.one<{ tags: Record<string, string> }>(
      sql`SELECT tags FROM t WHERE id = 'r7'`,
    );
    expect(one?.tags).toEqual({ 'k\ufffd': `grüße 😀 ${'x'.repeat(7)}` });
  });
});
