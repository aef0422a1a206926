import { describe, expect, it } from 'vitest';
import { readQuota, WARNING_THRESHOLD } from './quota-state';
import { emptyUsage, exceededLimit } from './usage';

const quotas = { issue_events: 10, trace_spans: 100, log_bytes: 1000, metric_bytes: 500 };

describe('readQuota', () => {
  it('is ok with no limit below the threshold', () => {
    const u = emptyUsage();
    u.issues.events = 7;
    expect(readQuota(u, quotas)).toEqual({ state: 'ok', limit: null, percentUsed: 70 });
  });

  it('warns at the threshold and names the group', () => {
    expect(WARNING_THRESHOLD).toBe(0.8);
    const u = emptyUsage();
    u.logs.bytes = 800;
    expect(readQuota(u, quotas)).toEqual({ state: 'warning', limit: 'bytes', percentUsed: 80 });
  });

  it('is blocked exactly when ingestion refuses any more of that type', () => {
    const u = emptyUsage();
    u.traces.events = 99;
    const one = emptyUsage();
    one.traces.events = 1;
    expect(readQuota(u, quotas).state).toBe('warning');
    expect(exceededLimit(u, one, quotas)).toBeNull();
    u.traces.events = 100;
    expect(readQuota(u, quotas)).toEqual({ state: 'blocked', limit: 'events', percentUsed: 100 });
    expect(exceededLimit(u, one, quotas)).toBe('trace_spans');
  });

  it('names the blocked limit before a fuller warning one', () => {
    const u = emptyUsage();
    u.metrics.bytes = 500; // bytes blocked (100%)
    u.issues.events = 9; // events warning (90%)
    expect(readQuota(u, quotas)).toMatchObject({ state: 'blocked', limit: 'bytes' });
    const v = emptyUsage();
    v.issues.events = 10; // events blocked
    v.logs.bytes = 990; // bytes warning
    expect(readQuota(v, quotas)).toMatchObject({ state: 'blocked', limit: 'events' });
  });

  it('an allowance of 0 is blocked from the start', () => {
    expect(readQuota(emptyUsage(), { ...quotas, metric_bytes: 0 })).toMatchObject({
      state: 'blocked',
      limit: 'bytes',
    });
  });

  it('actions count toward no limit', () => {
    const u = emptyUsage();
    u.actions.events = 1_000_000;
    expect(readQuota(u, quotas).state).toBe('ok');
  });
});
