import { describe, expect, it } from 'vitest';
import type { Log } from '../../api/queries/logs';
import type { LiveEventData } from '../../live/live-message';
import {
  liveLogOf,
  matchesTail,
  mergeLive,
  rangeIsOpen,
  tailView,
  type TailFilter,
} from './live-logs';

const P1 = '0f8fad5b-d9cb-469f-a165-70867728950e';
const P2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

function log(id: string, at: string, over: Partial<Log> = {}): Log {
  return {
    id,
    project_id: P1,
    level: 'error',
    severity: 'error',
    triage: { effective_severity: 'error', ignored: false, rule_applied: false },
    source: 'app',
    message: 'Payment provider slow',
    attributes: { http: { status: 503 } },
    occurred_at: at,
    environment: 'production',
    release: 'checkout@2.14.1',
    service_name: 'checkout-api',
    trace_id: null,
    span_id: null,
    sdk_name: 'lookout.native',
    sdk_version: '1',
    next_action: { code: 'inspect_related_logs', target: 'telemetry_logs' },
    ...over,
  };
}

const tail = (over: Partial<TailFilter> = {}): TailFilter => ({
  filters: { since: '24h' },
  since: '2026-11-22T00:00:00.000Z',
  projectIds: null,
  attributeFilters: [],
  ...over,
});

const at = '2026-11-22T10:00:00.000Z';

describe('liveLogOf', () => {
  it('takes a record of the Log shape and skips anything else', () => {
    const l = log('a', at);
    expect(liveLogOf(l as unknown as LiveEventData)).toBe(l);
    const broken = { ...l, triage: null } as unknown as LiveEventData;
    expect(liveLogOf(broken)).toBeNull();
    expect(liveLogOf({ id: 'x', project_id: P1 })).toBeNull();
    expect(liveLogOf({ ...l, severity: 'fatal' } as unknown as LiveEventData)).toBeNull();
  });
});

describe('matchesTail', () => {
  it('keeps the scope and the range', () => {
    expect(matchesTail(log('a', at), tail())).toBe(true);
    expect(matchesTail(log('a', at, { project_id: P2 }), tail({ projectIds: [P1] }))).toBe(false);
    expect(matchesTail(log('a', '2026-11-21T23:59:59.999Z'), tail())).toBe(false);
    expect(
      matchesTail(
        log('a', at),
        tail({ filters: { since: 'x', until: '2026-11-22T10:00:00.000Z' } }),
      ),
    ).toBe(false);
  });

  it('compares the effective severity and the triage status', () => {
    const overridden = log('a', at, {
      triage: { effective_severity: 'info', ignored: false, rule_applied: true },
    });
    expect(matchesTail(overridden, tail({ filters: { since: '24h', severity: 'error' } }))).toBe(
      false,
    );
    expect(matchesTail(overridden, tail({ filters: { since: '24h', severity: 'info' } }))).toBe(
      true,
    );
    const ignored = log('b', at, {
      triage: { effective_severity: 'error', ignored: true, rule_applied: true },
    });
    expect(matchesTail(ignored, tail())).toBe(false);
    expect(matchesTail(ignored, tail({ filters: { since: '24h', status: 'ignored' } }))).toBe(true);
    expect(matchesTail(ignored, tail({ filters: { since: '24h', status: 'all' } }))).toBe(true);
    expect(matchesTail(log('c', at), tail({ filters: { since: '24h', status: 'ignored' } }))).toBe(
      false,
    );
  });

  it('matches exact fields and the message case-insensitively', () => {
    const f = (over: object) => tail({ filters: { since: '24h', ...over } });
    expect(matchesTail(log('a', at), f({ service_name: 'checkout-api' }))).toBe(true);
    expect(matchesTail(log('a', at), f({ service_name: 'checkout' }))).toBe(false);
    expect(matchesTail(log('a', at), f({ release: 'checkout@2.14.0' }))).toBe(false);
    expect(matchesTail(log('a', at), f({ environment: 'production' }))).toBe(true);
    expect(matchesTail(log('a', at), f({ trace_id: 'abc' }))).toBe(false);
    expect(matchesTail(log('a', at, { trace_id: 'abc' }), f({ trace_id: 'abc' }))).toBe(true);
    expect(matchesTail(log('a', at), f({ search: 'PROVIDER slow' }))).toBe(true);
    expect(matchesTail(log('a', at), f({ search: 'timeout' }))).toBe(false);
  });

  it('applies attribute filters', () => {
    expect(
      matchesTail(
        log('a', at),
        tail({
          attributeFilters: [{ path: '/http/status', type: 'number', operator: 'gte', value: 500 }],
        }),
      ),
    ).toBe(true);
    expect(
      matchesTail(
        log('a', at),
        tail({
          attributeFilters: [{ path: '/http/status', type: 'number', operator: 'lt', value: 500 }],
        }),
      ),
    ).toBe(false);
  });
});

describe('mergeLive and tailView', () => {
  const fetched = [log('c', '2026-11-22T10:00:03.000Z'), log('b', '2026-11-22T10:00:01.000Z')];

  it('merges by id, newest first, the fetched copy winning', () => {
    const liveCopy = log('c', '2026-11-22T10:00:03.000Z', { message: 'live copy' });
    const newer = log('d', '2026-11-22T10:00:04.000Z');
    const between = log('e', '2026-11-22T10:00:02.000Z');
    const rows = mergeLive(fetched, [newer, liveCopy, between]);
    expect(rows.map((l) => l.id)).toEqual(['d', 'c', 'e', 'b']);
    expect(rows[1]?.message).toBe('Payment provider slow');
    expect(mergeLive(fetched, [])).toBe(fetched);
  });

  it('orders equal times by id, descending', () => {
    const t = '2026-11-22T10:00:05.000Z';
    expect(mergeLive([], [log('a', t), log('b', t)]).map((l) => l.id)).toEqual(['b', 'a']);
  });

  it('holds back live logs that arrived after the pause', () => {
    const shownBefore = log('d', '2026-11-22T10:00:04.000Z');
    const arrived = log('f', '2026-11-22T10:00:06.000Z');
    const alsoFetched = log('c', '2026-11-22T10:00:03.000Z');
    const view = tailView(fetched, [arrived, shownBefore, alsoFetched], new Set(['d']));
    expect(view.rows.map((l) => l.id)).toEqual(['d', 'c', 'b']);
    expect(view.pending).toBe(1);
    expect(tailView(fetched, [arrived, shownBefore], null)).toEqual({
      rows: [arrived, shownBefore, ...fetched],
      pending: 0,
    });
  });
});

describe('rangeIsOpen', () => {
  it('is closed by an until in the past', () => {
    const now = Date.parse(at);
    expect(rangeIsOpen(undefined, now)).toBe(true);
    expect(rangeIsOpen('2026-11-22T11:00:00.000Z', now)).toBe(true);
    expect(rangeIsOpen('2026-11-22T09:00:00.000Z', now)).toBe(false);
  });
});
