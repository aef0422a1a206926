import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, sql } from '../../rows/sql';
import { clickhouseTestTelemetry, dropTestTelemetry } from '../../../test-support/test-clickhouse';
import { AcceptedIdFilter, keyOf, murmur3 } from './accepted-id-filter';
import { openClickHouse, type ChDb } from './clickhouse-db';
import { migrateClickHouse } from './clickhouse-migrations';
import { loadLedgerFilter } from './ledger-filter';

const target = clickhouseTestTelemetry();
let db: ChDb;

beforeAll(async () => {
  db = await openClickHouse(target);
  await migrateClickHouse(db);
});

afterAll(async () => {
  await db.close();
  await dropTestTelemetry(target);
});

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('the accepted-id filter', () => {
  it("hashes keys as ClickHouse's murmurHash3_32 does, whatever their length and characters", async () => {
    const keys = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      'abcde',
      keyOf('p_1', 'log', 'ünï-çødé ✓ 🚀'),
      'x'.repeat(101),
    ];
    const rows = await db.rows<{ h: number }>(
      sql`SELECT murmurHash3_32(k) AS h FROM (SELECT arrayJoin(${keys}) AS k)`,
    );
    expect(rows.map((r) => r.h)).toEqual(keys.map((k) => murmur3(utf8(k), 0, utf8(k).length)));
  });

  it('never rules out a key added, and rules out almost every other', () => {
    const filter = new AcceptedIdFilter(50_000);
    const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    // Past its first capacity: the filter grows by a segment.
    for (let n = 0; n < 200_000; n++) filter.add('p_a', 'log', id(n));
    let missed = 0;
    for (let n = 0; n < 200_000; n++) if (!filter.mayHold('p_a', 'log', id(n))) missed += 1;
    expect(missed).toBe(0);
    let maybe = 0;
    for (let n = 200_000; n < 400_000; n++) if (filter.mayHold('p_a', 'log', id(n))) maybe += 1;
    // The same ids of another project or kind are other keys.
    for (let n = 0; n < 100_000; n++) {
      if (filter.mayHold('p_b', 'log', id(n))) maybe += 1;
      if (filter.mayHold('p_a', 'span', id(n))) maybe += 1;
    }
    expect(maybe).toBeLessThan(10);
  });

  it('holds every key of the ledger when built from it', async () => {
    const ids = Array.from({ length: 3_000 }, (_, n) => `id-${String(n)}-ü`);
    await db.command(
      sql`INSERT INTO accepted_ids (project_id, kind, id, occurred_at, batch_id, retention_days)
        SELECT ${'p_ledger'}, 'span', arrayJoin(${ids}), now64(3), generateUUIDv4(), 30`,
    );
    await db.command(
      raw(`INSERT INTO accepted_ids (project_id, kind, id, occurred_at, batch_id, retention_days)
        SELECT 'p_ledger', 'metric', 'evt-0', now64(3), generateUUIDv4(), 30`),
    );
    const filter = await loadLedgerFilter(db);
    expect(filter.size).toBe(3_001);
    expect(ids.every((i) => filter.mayHold('p_ledger', 'span', i))).toBe(true);
    expect(filter.mayHold('p_ledger', 'metric', 'evt-0')).toBe(true);
    expect(ids.filter((i) => filter.mayHold('p_ledger', 'log', i)).length).toBeLessThan(3);
  });
});
