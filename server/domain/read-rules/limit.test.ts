import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit, parseLimitInRange } from './limit';

describe('parseLimit', () => {
  it('defaults, keeps in-range values and clamps over the maximum', () => {
    expect(parseLimit(undefined)).toBe(DEFAULT_LIMIT);
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('1000')).toBe(MAX_LIMIT);
    expect(parseLimit('1001')).toBe(MAX_LIMIT);
    expect(parseLimit('99999999999999999999')).toBe(MAX_LIMIT);
  });
  it('rejects zero, negative and non-integer values', () => {
    for (const v of ['0', '00', '-1', '1.5', '', 'ten', '1e3', ' 5'])
      expect(() => parseLimit(v), v).toThrow('limit must be a positive integer');
  });
  it('a ranged limit refuses values outside its range instead of clamping', () => {
    const bounds = { fallback: 50, max: 200 };
    expect(parseLimitInRange(undefined, bounds)).toBe(50);
    expect(parseLimitInRange('1', bounds)).toBe(1);
    expect(parseLimitInRange('200', bounds)).toBe(200);
    for (const v of ['0', '201', '-1', '1.5', '', 'ten', '99999999999'])
      expect(() => parseLimitInRange(v, bounds), v).toThrow(
        'limit must be an integer from 1 to 200',
      );
  });
});
