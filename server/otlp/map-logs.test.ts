import { describe, expect, it } from 'vitest';
import { severityOf } from './map-logs';

describe('severityOf', () => {
  it('each OTel range of four maps to one Lookout severity; TRACE and DEBUG are info', () => {
    const byNumber = Array.from({ length: 24 }, (_, i) => severityOf(i + 1, ''));
    expect(byNumber).toEqual([
      ...Array<string>(12).fill('info'),
      ...Array<string>(4).fill('warning'),
      ...Array<string>(4).fill('error'),
      ...Array<string>(4).fill('critical'),
    ]);
  });

  it('a number decides over the text', () => {
    expect(severityOf(9, 'FATAL')).toBe('info');
    expect(severityOf(17, 'debug')).toBe('error');
  });

  it('without a number, a text Lookout knows decides, in any case and with spaces', () => {
    expect(severityOf(0, 'WARN')).toBe('warning');
    expect(severityOf(0, 'Error')).toBe('error');
    expect(severityOf(0, ' fatal ')).toBe('critical');
    expect(severityOf(0, 'debug')).toBe('info');
  });

  it('an unknown or empty text is info', () => {
    expect(severityOf(0, 'NOTICE')).toBe('info');
    expect(severityOf(0, '')).toBe('info');
    // An inherited property name is not a severity.
    expect(severityOf(0, 'constructor')).toBe('info');
  });
});
