import { describe, expect, it } from 'vitest';
import { and, join, pgStatement, raw, sql, sqliteStatement, where } from './sql';

describe('sql fragments', () => {
  it('hold values apart from the text and number them per engine', () => {
    const q = sql`SELECT * FROM logs WHERE id = ${'a'} AND occurred_at >= ${5}`;
    expect(pgStatement(q)).toEqual({
      text: 'SELECT * FROM logs WHERE id = $1 AND occurred_at >= $2',
      values: ['a', 5],
    });
    expect(sqliteStatement(q)).toEqual({
      text: 'SELECT * FROM logs WHERE id = ? AND occurred_at >= ?',
      values: ['a', 5],
    });
  });

  it('nest, keeping the values in the order of the text', () => {
    const inner = sql`b = ${2}`;
    const q = sql`SELECT 1 WHERE a = ${1} AND ${inner} AND c = ${3}`;
    expect(pgStatement(q)).toEqual({
      text: 'SELECT 1 WHERE a = $1 AND b = $2 AND c = $3',
      values: [1, 2, 3],
    });
  });

  it('take raw text as it is, never as a value', () => {
    const q = sql`SELECT ${raw('id, name')} FROM ${raw('logs')} LIMIT ${10}`;
    expect(pgStatement(q)).toEqual({ text: 'SELECT id, name FROM logs LIMIT $1', values: [10] });
  });

  it('keep a value that looks like SQL a value', () => {
    const q = sql`SELECT 1 WHERE name = ${"x' OR '1'='1"}`;
    expect(sqliteStatement(q)).toEqual({
      text: 'SELECT 1 WHERE name = ?',
      values: ["x' OR '1'='1"],
    });
  });

  it('join conditions, and write none as TRUE or no WHERE at all', () => {
    expect(pgStatement(and([sql`a = ${1}`, sql`b = ${2}`])).text).toBe('a = $1 AND b = $2');
    expect(pgStatement(and([])).text).toBe('TRUE');
    expect(pgStatement(where([])).text).toBe('');
    expect(pgStatement(where([sql`a = ${1}`]))).toEqual({ text: 'WHERE a = $1', values: [1] });
    expect(pgStatement(join([sql`${1}`, sql`${2}`, sql`${3}`], ', ')).text).toBe('$1, $2, $3');
  });
});
