import { describe, expect, it } from 'vitest';
import { jsonEachRow } from './ch-sql';

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
