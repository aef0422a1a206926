import { describe, expect, it } from 'vitest';
import { MAX_ATTRIBUTE_DEPTH } from '../ingest/item-schemas';
import type { OtlpAnyValue } from './otlp-messages';
import { anyValue, attributes, IdMinter, idHex, msOf, RecordRejection } from './otlp-values';

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('anyValue', () => {
  it('scalars: string, bool, double, int', () => {
    expect(anyValue({ value: 'stringValue', stringValue: 'GET' })).toBe('GET');
    expect(anyValue({ value: 'boolValue', boolValue: false })).toBe(false);
    expect(anyValue({ value: 'doubleValue', doubleValue: 0.25 })).toBe(0.25);
    expect(anyValue({ value: 'intValue', intValue: '-42' })).toBe(-42);
  });

  it('an int64 beyond 2^53 keeps its exact digits as text; one that fits is a number', () => {
    expect(anyValue({ value: 'intValue', intValue: '9007199254740991' })).toBe(9007199254740991);
    expect(anyValue({ value: 'intValue', intValue: '9007199254740993' })).toBe('9007199254740993');
    expect(anyValue({ value: 'intValue', intValue: '-9223372036854775808' })).toBe(
      '-9223372036854775808',
    );
  });

  it('a NaN or infinite double is kept as its text (JSON has neither)', () => {
    expect(anyValue({ value: 'doubleValue', doubleValue: NaN })).toBe('NaN');
    expect(anyValue({ value: 'doubleValue', doubleValue: -Infinity })).toBe('-Infinity');
  });

  it('bytes stay base64; arrays and key-value lists become JSON arrays and objects', () => {
    expect(anyValue({ value: 'bytesValue', bytesValue: 'AQID' })).toBe('AQID');
    expect(
      anyValue({
        value: 'arrayValue',
        arrayValue: {
          values: [
            { value: 'intValue', intValue: '1' },
            { value: 'kvlistValue', kvlistValue: { values: [{ key: 'a.b', value: null }] } },
          ],
        },
      }),
    ).toEqual([1, { 'a.b': null }]);
  });

  it('an empty value is null', () => {
    expect(anyValue(null)).toBeNull();
    expect(anyValue({})).toBeNull();
  });

  it('values nested deeper than attributes may be are a rejection, not a stack overflow', () => {
    let v: OtlpAnyValue = { value: 'stringValue', stringValue: 'leaf' };
    for (let i = 0; i < MAX_ATTRIBUTE_DEPTH; i++)
      v = { value: 'arrayValue', arrayValue: { values: [v] } };
    expect(() => anyValue(v)).toThrow(RecordRejection);
  });
});

describe('attributes', () => {
  it('dotted keys stay flat; a key sent twice keeps its last value', () => {
    expect(
      attributes([
        { key: 'http.request.method', value: { value: 'stringValue', stringValue: 'GET' } },
        { key: 'http.request.method', value: { value: 'stringValue', stringValue: 'POST' } },
        { key: 'server.port', value: { value: 'intValue', intValue: '8080' } },
      ]),
    ).toEqual({ 'http.request.method': 'POST', 'server.port': 8080 });
  });

  it('__proto__ as a key rejects the record instead of changing the object', () => {
    expect(() =>
      attributes([{ key: '__proto__', value: { value: 'stringValue', stringValue: 'x' } }]),
    ).toThrow(RecordRejection);
  });
});

describe('ids and times', () => {
  it('ids are lowercase hex of their bytes; empty and all-zero ids are none; a wrong length is a rejection', () => {
    expect(idHex(b64('0AF7651916CD43DD8448EB211C80319C'), 16, 'traceId')).toBe(
      '0af7651916cd43dd8448eb211c80319c',
    );
    expect(idHex('', 8, 'spanId')).toBeNull();
    expect(idHex(b64('0000000000000000'), 8, 'spanId')).toBeNull();
    expect(() => idHex(b64('b7ad6b7169203331'), 16, 'traceId')).toThrow(
      'traceId must be 16 bytes, not 8',
    );
  });

  it('nanoseconds to milliseconds keep the sub-millisecond part; 0 is unset', () => {
    expect(msOf('1740988800000500000')).toBe(1740988800000.5);
    expect(msOf('0')).toBeNull();
    expect(msOf('')).toBeNull();
  });
});

describe('IdMinter', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('the same parts give the same id in another request (a retry), as a version-8 UUID', () => {
    const first = new IdMinter().mint('log', 'a', 'b');
    expect(first).toMatch(UUID);
    expect(new IdMinter().mint('log', 'a', 'b')).toBe(first);
    expect(new IdMinter().mint('log', 'a', 'c')).not.toBe(first);
    // Parts are separated: ("ab", "c") is not ("a", "bc").
    expect(new IdMinter().mint('ab', 'c')).not.toBe(new IdMinter().mint('a', 'bc'));
  });

  it('identical parts within one request get distinct ids, the same ones on a retry', () => {
    const mint = () => {
      const m = new IdMinter();
      return [m.mint('log', 'x'), m.mint('log', 'x'), m.mint('log', 'x')];
    };
    const ids = mint();
    expect(new Set(ids).size).toBe(3);
    expect(mint()).toEqual(ids);
  });
});
