import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/api-error';
import type {
  ActionItemInput,
  IssueItemInput,
  LogItemInput,
  MetricItemInput,
  SpanItemInput,
} from './item-schemas';
import {
  billedBytes,
  normalizeAction,
  normalizeIssue,
  normalizeLog,
  normalizeMetric,
  normalizeSpan,
} from './normalize';

const sdk = { name: 'lookout.node', version: '1.0.0' };
const defaults = { release: 'api@1.0.0', environment: 'production', service_name: 'api' };
const T = '2025-03-03T08:00:00.123456Z';
const ID = '11111111-2222-4333-8444-555555555555';

const log = (o: Partial<LogItemInput> = {}): LogItemInput => ({
  id: ID,
  occurred_at: T,
  message: 'hello',
  ...o,
});
const issue = (o: Partial<IssueItemInput> = {}): IssueItemInput => ({
  id: ID,
  occurred_at: T,
  message: 'boom',
  ...o,
});

function thrown(f: () => unknown): ApiError {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('severity and level', () => {
  it.each([
    ['trace', 'info'],
    ['debug', 'info'],
    ['info', 'info'],
    ['warn', 'warning'],
    ['warning', 'warning'],
    ['error', 'error'],
    ['fatal', 'critical'],
    ['critical', 'critical'],
  ])('%s is stored as %s, sent as severity or as level', (input, canonical) => {
    expect(normalizeLog(log({ severity: input }), defaults, sdk, 'logs[0]').severity).toBe(
      canonical,
    );
    expect(normalizeLog(log({ level: input }), defaults, sdk, 'logs[0]').severity).toBe(canonical);
    expect(normalizeIssue(issue({ severity: input }), defaults, sdk, 'issues[0]').severity).toBe(
      canonical,
    );
  });

  it('both with the same meaning are accepted', () => {
    expect(
      normalizeLog(log({ severity: 'warn', level: 'warning' }), defaults, sdk, 'l').severity,
    ).toBe('warning');
    expect(
      normalizeLog(log({ severity: 'trace', level: 'debug' }), defaults, sdk, 'l').severity,
    ).toBe('info');
  });

  it('both with different meanings are refused, naming the item', () => {
    const e = thrown(() =>
      normalizeLog(log({ severity: 'warn', level: 'error' }), defaults, sdk, 'logs[4]'),
    );
    expect([e.status, e.code, e.message]).toEqual([
      422,
      'validation_failed',
      'logs[4]: severity and level conflict; send one value',
    ]);
  });

  it('an unknown value is refused even if it got past the schema', () => {
    for (const bad of [{ severity: 'loud' }, { level: 'constructor' }, { severity: 'WARN' }]) {
      const e = thrown(() => normalizeLog(log(bad), defaults, sdk, 'logs[0]'));
      expect(e.message).toBe('logs[0]: unknown severity or level');
    }
  });

  it('defaults: info for a log, error for an issue', () => {
    expect(normalizeLog(log(), defaults, sdk, 'l').severity).toBe('info');
    expect(normalizeIssue(issue(), defaults, sdk, 'i').severity).toBe('error');
  });

  it('breadcrumb levels are canonical; breadcrumbs without a level keep none', () => {
    const e = normalizeIssue(
      issue({
        breadcrumbs: [
          { timestamp: T, level: 'fatal', message: 'a' },
          { timestamp: T, message: 'b' },
        ],
      }),
      defaults,
      sdk,
      'i',
    );
    expect(e.breadcrumbs).toEqual([
      { timestamp: T, level: 'critical', message: 'a' },
      { timestamp: T, message: 'b' },
    ]);
    expect(e.breadcrumbsTruncated).toBe(false);
    expect(normalizeIssue(issue(), defaults, sdk, 'i').breadcrumbs).toBeNull();
  });
});

describe('release, environment and service', () => {
  it('the item’s own values win over the defaults, trimmed', () => {
    const e = normalizeLog(
      log({ release: ' web@2 ', environment: 'staging', service_name: 'web' }),
      defaults,
      sdk,
      'l',
    );
    expect([e.release, e.environment, e.service_name]).toEqual(['web@2', 'staging', 'web']);
    const d = normalizeLog(log(), defaults, sdk, 'l');
    expect([d.release, d.environment, d.service_name]).toEqual(['api@1.0.0', 'production', 'api']);
  });

  it.each(['release', 'environment', 'service_name'] as const)(
    'a missing or blank %s after the merge is refused',
    (key) => {
      for (const value of [undefined, '', '   ']) {
        const e = thrown(() =>
          normalizeAction(
            { id: ID, occurred_at: T, name: 'x', kind: 'interaction', distinct_id: 'u' },
            { ...defaults, [key]: value },
            sdk,
            'actions[2]',
          ),
        );
        expect(e.code).toBe('validation_failed');
        expect(e.message).toBe(`actions[2].${key} is required and must not be blank`);
      }
    },
  );

  it('an item value makes up for a missing default', () => {
    const e = normalizeLog(log({ release: 'r1' }), { ...defaults, release: undefined }, sdk, 'l');
    expect(e.release).toBe('r1');
  });
});

describe('normalizeIssue', () => {
  it('the title: given, else exception type and value, else the first message line', () => {
    const t = (o: Partial<IssueItemInput>) => normalizeIssue(issue(o), defaults, sdk, 'i').title;
    expect(t({ title: 'Checkout failed' })).toBe('Checkout failed');
    expect(t({ exception: { type: 'TypeError', value: 'x is undefined' } })).toBe(
      'TypeError: x is undefined',
    );
    expect(t({ exception: { type: 'TypeError' } })).toBe('TypeError');
    expect(t({ message: 'first line\nsecond line' })).toBe('first line');
    expect(t({ message: '' })).toBe('Error');
  });

  it('groups by exception type and stack frames without line numbers; an explicit fingerprint wins', () => {
    const stack = (line: number) =>
      `Error\n    at charge (src/pay.ts:${line}:5)\n    at run (src/main.ts:${line * 2}:1)`;
    const a = normalizeIssue(
      issue({ exception: { type: 'PayError' }, stack_trace: stack(10) }),
      defaults,
      sdk,
      'i',
    );
    const b = normalizeIssue(
      issue({ exception: { type: 'PayError' }, stack_trace: stack(99), message: 'other' }),
      defaults,
      sdk,
      'i',
    );
    const c = normalizeIssue(
      issue({ exception: { type: 'OtherError' }, stack_trace: stack(10) }),
      defaults,
      sdk,
      'i',
    );
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(c.fingerprint).not.toBe(a.fingerprint);
    expect(
      normalizeIssue(issue({ fingerprint: 'checkout-timeout' }), defaults, sdk, 'i').fingerprint,
    ).toBe('checkout-timeout');
  });

  it('times in epoch ms; absent optional fields are null, not undefined', () => {
    const e = normalizeIssue(issue(), defaults, sdk, 'i');
    expect(e.occurredAt).toBe(Date.parse('2025-03-03T08:00:00.123Z'));
    expect(e).toMatchObject({
      kind: 'issue',
      exception: null,
      stackTrace: null,
      traceId: null,
      spanId: null,
      attributes: {},
      sdk,
    });
  });
});

describe('normalizeLog', () => {
  it('bytes billed are the message and the attributes as JSON', () => {
    const e = normalizeLog(log({ message: 'héllo', attributes: { a: 1 } }), defaults, sdk, 'l');
    expect(e.bytes).toBe(Buffer.byteLength('héllo') + Buffer.byteLength('{"a":1}'));
    expect(e.bytes).toBe(billedBytes('héllo', '{"a":1}'));
    expect(e.attributesJson).toBe('{"a":1}');
    expect(normalizeLog(log({ message: '' }), defaults, sdk, 'l').bytes).toBe(2);
  });

  it('source defaults to app; trace fields to null', () => {
    const e = normalizeLog(log(), defaults, sdk, 'l');
    expect([e.source, e.traceId, e.spanId]).toEqual(['app', null, null]);
    const t = normalizeLog(
      log({ trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16), source: 'db' }),
      defaults,
      sdk,
      'l',
    );
    expect([t.source, t.traceId, t.spanId]).toEqual(['db', 'a'.repeat(32), 'b'.repeat(16)]);
  });
});

describe('normalizeSpan', () => {
  const span = (o: Partial<SpanItemInput> = {}): SpanItemInput => ({
    id: ID,
    trace_id: 'a'.repeat(32),
    span_id: 'b'.repeat(16),
    name: 'GET /',
    started_at: T,
    duration_ms: 5,
    ...o,
  });

  it('a span cannot be its own parent', () => {
    const e = thrown(() =>
      normalizeSpan(span({ parent_span_id: 'b'.repeat(16) }), defaults, sdk, 'trace_spans[1]'),
    );
    expect(e.message).toBe('trace_spans[1].parent_span_id must differ from span_id');
  });

  it('absent optional fields are null or empty', () => {
    expect(normalizeSpan(span(), defaults, sdk, 's')).toMatchObject({
      parentSpanId: null,
      operation: null,
      spanKind: null,
      status: null,
      statusMessage: null,
      attributes: {},
      events: [],
      startedAt: Date.parse(T),
    });
  });
});

describe('normalizeAction and normalizeMetric', () => {
  it('an action keeps its kind, actor and session', () => {
    const a: ActionItemInput = {
      id: ID,
      occurred_at: T,
      name: 'signup',
      kind: 'page_view',
      distinct_id: 'u1',
    };
    expect(normalizeAction(a, defaults, sdk, 'a')).toMatchObject({
      actionKind: 'page_view',
      distinctId: 'u1',
      sessionId: null,
      properties: {},
    });
  });

  it('a metric is billed for its name, value and attributes', () => {
    const m: MetricItemInput = {
      id: ID,
      occurred_at: T,
      name: 'lcp',
      kind: 'gauge',
      value: 2.5,
      attributes: { h: 'x' },
    };
    const e = normalizeMetric(m, defaults, sdk, 'm');
    expect(e.bytes).toBe(Buffer.byteLength('lcp2.5') + Buffer.byteLength('{"h":"x"}'));
    expect([e.unit, e.temporality]).toEqual([null, null]);
  });
});
