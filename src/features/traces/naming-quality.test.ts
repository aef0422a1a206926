import { describe, expect, it } from 'vitest';
import type { TraceNamingQuality } from '../../api/queries/traces';
import { namingAdvice, namingHeading, namingRules } from './naming-quality';

const quality = (over: Partial<TraceNamingQuality> = {}): TraceNamingQuality => ({
  evaluated_traces: 100,
  meaningful_name_traces: 80,
  generic_name_traces: 12,
  unmatched_route_traces: 9,
  generic_operation_traces: 3,
  truncated: true,
  next_action: { code: 'improve_trace_naming', target: 'sdk_configuration' },
  ...over,
});

describe('naming quality', () => {
  it('lists each count with its rule', () => {
    const rules = namingRules(quality());
    expect(rules.map((r) => [r.key, r.count, r.problem])).toEqual([
      ['meaningful', 80, false],
      ['generic_name', 12, true],
      ['unmatched_route', 9, true],
      ['generic_operation', 3, true],
    ]);
    expect(rules.every((r) => r.rule.length > 0)).toBe(true);
  });

  it('follows only the next action it knows', () => {
    expect(namingAdvice(quality())).toBe('improve');
    expect(namingAdvice(quality({ next_action: null }))).toBe('good');
    expect(namingAdvice(quality({ next_action: { code: 'improve_trace_naming' } }))).toBe('none');
    expect(namingAdvice(quality({ next_action: { code: 'other', target: 'x' } }))).toBe('none');
  });

  it('names the page, not the account', () => {
    expect(namingHeading(quality())).toBe('Naming quality of these 100 traces');
    expect(namingHeading(quality({ evaluated_traces: 1 }))).toBe('Naming quality of this trace');
  });
});
