import { describe, expect, it } from 'vitest';
import { jsonEachRow, jsonEachRowBytes } from './ch-sql';

describe('jsonEachRow', () => {
  it('writes one JSON object a line', () => {
    const rows = [
      { id: 'a', n: 1, map: { '/http/method': 'get' }, list: ['x'], none: null },
      { id: 'b', n: 2.5, map: {}, list: [], none: null },
    ];
    expect(
      jsonEachRow(rows)
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(rows);
  });

  it('replaces a lone surrogate in values, map keys and arrays with U+FFFD', () => {
    const text = jsonEachRow([
      { message: 'a\ud800b', map: { 'k\udc00': 'v\ud83d' }, list: ['\udfff'] },
    ]);
    expect(JSON.parse(text)).toEqual({
      message: 'a\ufffdb',
      map: { 'k\ufffd': 'v\ufffd' },
      list: ['\ufffd'],
    });
  });

  it('keeps well-formed pairs and text that only looks like an escape', () => {
    const row = { emoji: 'ok 😀', literal: 'C:\\ud800\\path', json: '{"a":"\\ud800"}' };
    expect(JSON.parse(jsonEachRow([row]))).toEqual(row);
  });
});

describe('jsonEachRowBytes', () => {
  const rows = [
    { id: 'a', message: 'grüße 😀', map: { 'k\ud800': 'v' } },
    { id: 'b', message: 'x'.repeat(5000), list: ['\udfff', 'ok'] },
  ];

  it('writes the UTF-8 of jsonEachRow, a line each, growing a buffer that is too small', () => {
    const { buffer, bytes } = jsonEachRowBytes(rows, Buffer.alloc(16));
    expect(bytes.toString('utf8')).toBe(`${jsonEachRow(rows)}\n`);
    expect(buffer.length).toBeGreaterThanOrEqual(bytes.length);
  });

  it('writes into the buffer given when it is large enough', () => {
    const into = Buffer.alloc(64 * 1024);
    const { buffer, bytes } = jsonEachRowBytes(rows, into);
    expect(buffer).toBe(into);
    expect(bytes.toString('utf8')).toBe(`${jsonEachRow(rows)}\n`);
  });
});
