import { describe, expect, it } from 'vitest';
import { compactList, errorSpanLabel, firstOf, traceAge } from './trace-format';

describe('trace-format', () => {
  const now = Date.parse('2026-11-20T12:00:00Z');

  it('says how long ago a trace started', () => {
    expect(traceAge('2026-11-20T11:59:30Z', now)).toBe('just now');
    expect(traceAge('2026-11-20T11:56:00Z', now)).toBe('4m ago');
    expect(traceAge('2026-11-20T09:00:00Z', now)).toBe('3h ago');
    expect(traceAge('2026-11-17T12:00:00Z', now)).toBe('3d ago');
    expect(traceAge('2026-11-20T12:00:05Z', now)).toBe('just now');
    expect(traceAge('soon', now)).toBe('soon');
  });

  it('keeps lists compact', () => {
    expect(compactList([])).toBe('—');
    expect(compactList(['web@1.8.2'])).toBe('web@1.8.2');
    expect(compactList(['web@1.8.2', 'api@2', 'x'])).toBe('web@1.8.2 +2');
    expect(firstOf(['a', 'b', 'c', 'd'], 2)).toEqual({ shown: ['a', 'b'], more: 2 });
    expect(firstOf(['a'], 3)).toEqual({ shown: ['a'], more: 0 });
  });

  it('counts error spans in words', () => {
    expect(errorSpanLabel(1)).toBe('1 error span');
    expect(errorSpanLabel(1200)).toBe('1,200 error spans');
  });
});
