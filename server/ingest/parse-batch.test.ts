import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/api-error';
import { MAX_ITEMS } from './batch-schemas';
import { parseNativeEnvelope, parseSdkBatch, SDK_ERRORS } from './parse-batch';

const PROJECT = '8d0c5a0e-1f7b-4a51-9a0e-3c2b1d4e5f60';
const T = '2025-03-03T08:00:00.000Z';
const ctx = { release: 'web@1.0.0', environment: 'production', service_name: 'web' };
const sdk = { name: 'lookout.javascript', version: '2.3.0' };

let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const log = (o: Record<string, unknown> = {}) => ({
  id: id(),
  occurred_at: T,
  message: 'hello',
  ...o,
});
const ev = (type: string, o: Record<string, unknown> = {}) => ({ type, ...log(o) });
const sdkBatch = (events: unknown, o: Record<string, unknown> = {}) => ({
  sdk,
  context: ctx,
  events,
  ...o,
});

/** The ApiError a parse throws (fails the test when it does not throw one). */
function rejection(parse: () => unknown): ApiError {
  try {
    parse();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the batch to be rejected');
}

const sdkRejection = (raw: unknown) => rejection(() => parseSdkBatch(raw, PROJECT));
const nativeRejection = (raw: unknown) => rejection(() => parseNativeEnvelope(raw, PROJECT));

function expectValidation(e: ApiError, error: string | RegExp) {
  expect(e.status).toBe(422);
  expect(e.code).toBe('validation_failed');
  expect(e.nextAction).toEqual({ code: 'fix_request', target: 'request' });
  if (typeof error === 'string') expect(e.message).toBe(error);
  else expect(e.message).toMatch(error);
}

describe('parseSdkBatch', () => {
  it('the three spec texts, exactly', () => {
    expect(SDK_ERRORS).toEqual({
      duplicateIds: 'SDK event ids must be unique within a batch',
      noEvents: 'SDK event batch requires at least one event',
      unsupportedType: 'SDK event type is not supported by this ingest route',
    });
  });

  it.each([
    ['missing', { sdk, context: ctx }],
    ['empty', sdkBatch([])],
    ['empty, with nothing else', { events: [] }],
  ])('events %s: "SDK event batch requires at least one event"', (_name, raw) => {
    expectValidation(sdkRejection(raw), SDK_ERRORS.noEvents);
  });

  it.each([
    ['an unknown type', [ev('log'), ev('profile')]],
    ['no type', [log()]],
    ['a type in capitals', [ev('LOG')]],
    ['a null event', [null]],
    ['a string event', ['log']],
    ['a type that is not a string', [ev('log'), { ...log(), type: 1 }]],
  ])('%s: "SDK event type is not supported by this ingest route"', (_name, events) => {
    expectValidation(sdkRejection(sdkBatch(events)), SDK_ERRORS.unsupportedType);
  });

  it.each([
    [
      'the same id twice',
      () => {
        const e = ev('log');
        return [
          e,
          ev('log'),
          { ...ev('metric', { name: 'm', kind: 'gauge', value: 1 }), id: e.id },
        ];
      },
    ],
    [
      'the same id in two cases',
      () => {
        const e = ev('log');
        return [e, { ...ev('action'), id: e.id.toUpperCase() }];
      },
    ],
  ])('%s: "SDK event ids must be unique within a batch"', (_name, events) => {
    expectValidation(sdkRejection(sdkBatch(events())), SDK_ERRORS.duplicateIds);
  });

  it('checks in order: no events, then types, then ids, then fields', () => {
    const e = ev('log', { occurred_at: 'never' });
    expectValidation(sdkRejection(sdkBatch([e, ev('nope'), e])), SDK_ERRORS.unsupportedType);
    expectValidation(sdkRejection(sdkBatch([e, e])), SDK_ERRORS.duplicateIds);
    expectValidation(sdkRejection({ events: [] }), SDK_ERRORS.noEvents);
  });

  it('events without ids are not "duplicates": the missing id is named', () => {
    const { id: _a, ...one } = ev('log');
    const { id: _b, ...two } = ev('log');
    expectValidation(sdkRejection(sdkBatch([one, two])), /^invalid telemetry: events\[0\]\.id: /);
  });

  it('a body that is not an object is 422 invalid_json', () => {
    for (const raw of [[], 'events', null, 3]) {
      const e = sdkRejection(raw);
      expect(e.status).toBe(422);
      expect(e.code).toBe('invalid_json');
      expect(e.message).toBe('request body must be a JSON object');
      expect(e.nextAction).toEqual({ code: 'send_valid_json', target: 'request' });
    }
  });

  it('events that are not an array', () => {
    expectValidation(sdkRejection(sdkBatch({ 0: ev('log') })), 'events must be an array of events');
  });

  it(`more than ${MAX_ITEMS} events`, () => {
    const events = Array.from({ length: MAX_ITEMS + 1 }, () => ev('log'));
    expectValidation(
      sdkRejection(sdkBatch(events)),
      `a batch holds at most ${MAX_ITEMS} items; this one has ${MAX_ITEMS + 1}`,
    );
  });

  it('the batch head: sdk and context with release and environment', () => {
    expectValidation(
      sdkRejection({ context: ctx, events: [ev('log')] }),
      /^invalid telemetry: sdk: /,
    );
    expectValidation(
      sdkRejection(sdkBatch([ev('log')], { context: { environment: 'production' } })),
      /^invalid telemetry: context\.release: /,
    );
    expectValidation(
      sdkRejection(sdkBatch([ev('log')], { context: { ...ctx, environment: '  ' } })),
      'invalid telemetry: context.environment: must not be blank',
    );
  });

  it('an event field names the event and the field', () => {
    expectValidation(
      sdkRejection(sdkBatch([ev('log'), ev('log', { occurred_at: '2025-03-03T10:00:00+02:00' })])),
      'invalid telemetry: events[1].occurred_at: must be an RFC3339 timestamp in UTC (ending in Z)',
    );
    expectValidation(
      sdkRejection(sdkBatch([ev('log', { colour: 'red' })])),
      'invalid telemetry: events[0]: unknown key colour',
    );
    expectValidation(
      sdkRejection(sdkBatch([ev('log', { severity: 'warn', level: 'error' })])),
      'events[0]: severity and level conflict; send one value',
    );
    expectValidation(
      sdkRejection(sdkBatch([ev('log', { release: '' })])),
      'invalid telemetry: events[0].release: must not be blank',
    );
  });

  // The batch is checked by one schema (the route's declared body); its answer stays what the
  // head-then-each-event check answered: the head's problems, else the first bad event's.
  it('names the head before any event, and only the first bad event', () => {
    expectValidation(
      sdkRejection(
        sdkBatch([ev('log', { colour: 'red' })], { context: { ...ctx, environment: '  ' } }),
      ),
      'invalid telemetry: context.environment: must not be blank',
    );
    expectValidation(
      sdkRejection(
        sdkBatch([
          ev('log'),
          ev('metric', { occurred_at: 'soon', message: undefined }),
          ev('log', { colour: 'red' }),
        ]),
      ),
      /^invalid telemetry: events\[1\]\.occurred_at: [^;]*(; events\[1\][^;]*)*$/,
    );
  });

  it('service_name is required on the event when the context has none', () => {
    const { service_name: _s, ...noService } = ctx;
    expectValidation(
      sdkRejection(sdkBatch([ev('log')], { context: noService })),
      'events[0].service_name is required and must not be blank',
    );
    const ok = parseSdkBatch(
      sdkBatch([ev('log', { service_name: 'api' })], { context: noService }),
      PROJECT,
    );
    expect(ok.logs[0]?.service_name).toBe('api');
  });

  it('a valid batch: items by kind, ids lower-cased, context merged, declared project kept', () => {
    const upper = ev('log').id.toUpperCase();
    const batch = parseSdkBatch(
      sdkBatch(
        [
          { ...ev('log'), id: upper },
          ev('issue'),
          {
            type: 'trace_span',
            id: id(),
            trace_id: 'a'.repeat(32),
            span_id: 'b'.repeat(16),
            name: 'GET /',
            started_at: T,
            duration_ms: 3,
          },
          { type: 'action', id: id(), occurred_at: T, name: 'signup', distinct_id: 'u1' },
          {
            type: 'metric',
            id: id(),
            occurred_at: T,
            name: 'lcp',
            kind: 'gauge',
            value: 1.5,
            environment: 'staging',
          },
        ],
        { project_id: PROJECT, context: { ...ctx, device: { model: 'Pixel' } } },
      ),
      PROJECT,
    );
    expect(batch.projectId).toBe(PROJECT);
    expect(batch.declaredProjectId).toBe(PROJECT);
    expect(batch.logs.map((l) => l.id)).toEqual([upper.toLowerCase()]);
    expect([
      batch.issues.length,
      batch.spans.length,
      batch.actions.length,
      batch.metrics.length,
    ]).toEqual([1, 1, 1, 1]);
    expect(batch.logs[0]).toMatchObject({ ...ctx, sdk });
    expect(batch.metrics[0]).toMatchObject({ release: ctx.release, environment: 'staging' });
  });

  it('without project_id there is no declared project', () => {
    expect(parseSdkBatch(sdkBatch([ev('log')]), PROJECT).declaredProjectId).toBeUndefined();
  });
});

describe('parseNativeEnvelope', () => {
  const env = (o: Record<string, unknown>) => ({ ...ctx, ...o });

  it('a body that is not an object is 422 invalid_json', () => {
    for (const raw of [[], 'logs', null, true]) {
      const e = nativeRejection(raw);
      expect([e.status, e.code, e.message]).toEqual([
        422,
        'invalid_json',
        'request body must be a JSON object',
      ]);
    }
  });

  it('metrics are refused, even an empty list', () => {
    for (const metrics of [[], [{ id: id() }]]) {
      expectValidation(
        nativeRejection(env({ logs: [log()], metrics })),
        'metrics are not accepted by the native envelope',
      );
    }
  });

  it('an envelope without items', () => {
    for (const raw of [env({}), env({ logs: [], issues: [] })]) {
      expectValidation(nativeRejection(raw), 'the envelope holds no items');
    }
  });

  it(`more than ${MAX_ITEMS} items across the lists`, () => {
    const half = Math.ceil((MAX_ITEMS + 1) / 2);
    const raw = env({
      logs: Array.from({ length: half }, () => log()),
      actions: Array.from({ length: MAX_ITEMS + 1 - half }, () => ({ id: id() })),
    });
    expectValidation(
      nativeRejection(raw),
      `a batch holds at most ${MAX_ITEMS} items; this one has ${MAX_ITEMS + 1}`,
    );
  });

  it('a repeated id within the envelope', () => {
    const a = log();
    expectValidation(
      nativeRejection(env({ logs: [a, log(), { ...a, id: a.id.toUpperCase() }] })),
      'item ids must be unique within a batch: logs[2].id repeats logs[0].id',
    );
    expectValidation(
      nativeRejection(
        env({ logs: [a], actions: [{ id: a.id, occurred_at: T, name: 'x', distinct_id: 'u' }] }),
      ),
      'item ids must be unique within a batch: actions[0].id repeats logs[0].id',
    );
  });

  it('unknown keys and wrong fields name where they are', () => {
    expectValidation(
      nativeRejection(env({ logs: [log()], event: 'x' })),
      'invalid telemetry: body: unknown key event',
    );
    expectValidation(
      nativeRejection(env({ logs: [log(), log({ trace_id: 'A'.repeat(32) })] })),
      'invalid telemetry: logs[1].trace_id: must be 32 lowercase hex characters',
    );
    expectValidation(
      nativeRejection(env({ issues: [{ ...log(), message: 1 }] })),
      /^invalid telemetry: issues\[0\]\.message: /,
    );
    expectValidation(
      nativeRejection(env({ release: ' ', logs: [log()] })),
      'invalid telemetry: release: must not be blank',
    );
  });

  it('lists at most five problems', () => {
    const bad = Array.from({ length: 8 }, () => log({ occurred_at: 'x' }));
    const e = nativeRejection(env({ logs: bad }));
    expect(e.message.split('; ')).toHaveLength(5);
  });

  it('a missing release after the merge names the item', () => {
    expectValidation(
      nativeRejection({ environment: 'production', service_name: 'web', logs: [log()] }),
      'logs[0].release is required and must not be blank',
    );
  });

  it('a valid envelope: defaults merged, the native sdk by default, declared project kept', () => {
    const own = log({ release: 'own@2' });
    const batch = parseNativeEnvelope(env({ project_id: PROJECT, logs: [log(), own] }), PROJECT);
    expect(batch.declaredProjectId).toBe(PROJECT);
    expect(batch.logs.map((l) => l.release)).toEqual([ctx.release, 'own@2']);
    expect(batch.logs[0]?.sdk).toEqual({ name: 'native', version: '1' });
    expect(batch.metrics).toEqual([]);
    const withSdk = parseNativeEnvelope(env({ sdk, logs: [log()] }), PROJECT);
    expect(withSdk.logs[0]?.sdk).toEqual(sdk);
    expect(withSdk.declaredProjectId).toBeUndefined();
  });
});
