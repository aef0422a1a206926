import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickhouseTestTelemetry, dropTestTelemetry } from '../../../test-support/test-clickhouse';
import { raw, sql } from '../../rows/sql';
import { clickhouseStatement, inlinedStatement, typed, wellFormed } from './ch-sql';
import { openClickHouse, type ChDb } from './clickhouse-db';

/**
 * Values written into a statement's text as literals must mean exactly what they mean as
 * parameters: every string comes back as sent (well-formed), none can end its literal, and
 * numbers, flags, nulls and arrays keep their placeholder's type.
 */
const HOSTILE = [
  '',
  "it's",
  "x' OR 1 = 1 --",
  "\\' OR 1 = 1 --",
  'back\\slash\\',
  '\\x27',
  "''",
  'line\nbreak\r\ttab',
  'nul\u0000byte',
  '\u001f\u007f',
  '{p1:String}',
  '$1 ? :name',
  'grüße 😀 日本',
  'lone \ud800 surrogate',
  '/* comment */ -- dash',
  'FORMAT JSONEachRow',
];

const telemetry = clickhouseTestTelemetry();
let db: ChDb;

beforeAll(async () => {
  db = await openClickHouse(telemetry);
  await db.command(raw(`CREATE TABLE t (id String, n Int64) ENGINE = MergeTree ORDER BY id`));
  await db.insertRows(
    't',
    [
      { id: 'a', n: 1 },
      { id: "it's", n: 2 },
    ],
    'inlined-seed',
  );
});

afterAll(async () => {
  await db.close();
  await dropTestTelemetry(telemetry);
});

describe('statements with literals written in', () => {
  it.each(HOSTILE)('reads back the string %j as sent', async (s) => {
    const row = await db.one<{ v: string; n: number }>(
      sql`SELECT ${s} AS v, toInt64(length(${s})) AS n`,
    );
    expect(row?.v).toBe(wellFormed(s));
    expect(row?.n).toBe(Buffer.byteLength(wellFormed(s)));
  });

  it('matches a row only by its value, never by what a value says', async () => {
    const count = async (id: string) =>
      (await db.one<{ c: number }>(sql`SELECT toInt64(count()) AS c FROM t WHERE id = ${id}`))?.c;
    expect(await count("it's")).toBe(1);
    for (const s of HOSTILE.filter((h) => h !== "it's")) expect(await count(s)).toBe(0);
    const some = await db.rows<{ id: string }>(
      sql`SELECT id FROM t WHERE id IN ${["it's", "x' OR 1 = 1 --", 'a']} ORDER BY id`,
    );
    expect(some.map((r) => r.id)).toEqual(['a', "it's"]);
  });

  it('takes lists far longer than a default query allows (every id of a large batch)', async () => {
    const ids = Array.from(
      { length: 20_000 },
      (_, i) => `8f14e45f-ceea-4167-a2b4-${String(i).padStart(12, '0')}`,
    );
    const row = await db.one<{ c: number }>(
      sql`SELECT toInt64(length(${typed(ids, 'Array(UUID)')})) AS c WHERE 'a' NOT IN ${ids}`,
    );
    expect(row?.c).toBe(20_000);
  });

  it('keeps numbers, flags, nulls and typed values as their placeholders type them', async () => {
    const row = await db.one<Record<string, unknown>>(sql`SELECT
        toTypeName(${9007199254740991}) AS big_type, ${9007199254740991} AS big,
        ${-1.5e-7} AS small, toTypeName(${typed(2, 'Float64')}) AS float_type,
        ${true} AS flag, ${null} AS nothing, ${typed([], 'Array(String)')} AS empty,
        ${[1, 2, 3]} AS ints, toTypeName(${typed(['8f14e45f-ceea-4167-a2b4-000000000001'], 'Array(UUID)')}) AS uuids`);
    expect(row).toEqual({
      big_type: 'Int64',
      big: 9007199254740991,
      small: -1.5e-7,
      float_type: 'Float64',
      flag: true,
      nothing: null,
      empty: [],
      ints: [1, 2, 3],
      uuids: 'Array(UUID)',
    });
  });

  it('writes each value where its placeholder would stand, with its type', () => {
    const q = sql`SELECT ${'a'} , ${typed(1, 'UInt8')}`;
    expect(clickhouseStatement(q).query).toBe('SELECT {p1:String} , {p2:UInt8}');
    expect(inlinedStatement(q)).toEqual({
      query: "SELECT CAST('a' AS String) , CAST(1 AS UInt8)",
      params: {},
    });
  });
});
