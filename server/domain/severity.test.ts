import { describe, expect, it } from 'vitest';
import { normalizeSeverity } from './severity';

describe('normalizeSeverity', () => {
  it('keeps canonical values', () => {
    for (const s of ['info', 'warning', 'error', 'critical']) expect(normalizeSeverity(s)).toBe(s);
  });
  it('normalizes the spec aliases', () => {
    expect(normalizeSeverity('trace')).toBe('info');
    expect(normalizeSeverity('debug')).toBe('info');
    expect(normalizeSeverity('warn')).toBe('warning');
    expect(normalizeSeverity('fatal')).toBe('critical');
  });
  it('rejects anything else, including other cases and prototype keys', () => {
    for (const s of ['INFO', 'notice', '', 'toString', '__proto__', 'err'])
      expect(normalizeSeverity(s)).toBeNull();
  });
});
