import { describe, expect, it } from 'vitest';
import { isTraceId, traceReadScope, traceSearchSchema } from './trace-search';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';

describe('traceSearchSchema', () => {
  it('keeps valid values and drops invalid ones instead of failing', () => {
    expect(
      traceSearchSchema.parse({ q: 'db', service: 'api', span: '00f067aa0ba902b7', slowest: true }),
    ).toEqual({ q: 'db', service: 'api', span: '00f067aa0ba902b7', slowest: true });
    expect(traceSearchSchema.parse({ q: '  ', span: 'XYZ', slowest: 'yes' })).toEqual({});
  });
});

describe('traceReadScope', () => {
  it('keeps the projects of the scope: one, several (read one by one), or none for all', () => {
    expect(traceReadScope({ project: P1 })).toEqual({ project_id: P1 });
    expect(traceReadScope({ projects: `${P1},${P2}` })).toEqual({ project_ids: `${P1},${P2}` });
    expect(traceReadScope({})).toEqual({});
    expect(traceReadScope({ project: P1, release: 'api@1', environment: 'prod' })).toEqual({
      project_id: P1,
      release: 'api@1',
      environment: 'prod',
    });
  });
});

describe('isTraceId', () => {
  it('accepts 32 lowercase hex characters only', () => {
    expect(isTraceId('4bf92f3577b34da6a3ce929d0e0e4736')).toBe(true);
    expect(isTraceId('4BF92F3577B34DA6A3CE929D0E0E4736')).toBe(false);
    expect(isTraceId('abc')).toBe(false);
  });
});
