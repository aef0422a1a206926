import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlanQuotas } from '../../domain/plans';
import { call } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  addIngestKey,
  createTenant,
  tableCounts,
  usageOf,
  type Tenant,
} from '../../test-support/telemetry';
import { kv, logRecord, logs, nanos, sendOtlp, span, traces } from '../../test-support/otlp';
import { expectOtlpStatus, expectOtlpSuccess, otlpReader } from '../../test-support/otlp-contract';

/** OTLP ingest under the accounting, limits and ingest-key rules of the other ingest routes. */

type Svc = RunningService<false>;

/** Every row count of the project, to show a refused request stored nothing. */
const counts = (svc: Svc, t: Tenant) => tableCounts(svc, t.projectId);
const reader = otlpReader;
const expectSuccess = expectOtlpSuccess;
const expectStatus = expectOtlpStatus;

describe('OTLP: usage accounting and the plan allowance', () => {
  let svc: Svc;
  const resetAt = '2025-04-01T00:00:00.000Z';
  beforeAll(async () => {
    svc = await startService({
      config: {
        planQuotas: {
          ...defaultPlanQuotas,
          pro: { ...defaultPlanQuotas.pro, trace_spans: 3, issue_events: 1 },
        },
      },
    });
  });
  afterAll(() => svc.close());

  it('accepted records are counted as usage like other ingest, and a retry counts nothing', async () => {
    const t = await reader(svc);
    const request = logs([
      logRecord({ body: { stringValue: 'cart loaded' }, attributes: kv({ items: 3 }) }),
      logRecord({ body: { stringValue: 'cart saved' }, attributes: [] }),
    ]);
    expectSuccess(await sendOtlp(svc.baseUrl, 'logs', request, { token: t.ingestKey }), 'protobuf');
    expectSuccess(
      await sendOtlp(svc.baseUrl, 'traces', traces([span(), span()]), { token: t.ingestKey }),
      'protobuf',
    );
    const usage = await usageOf(svc, t.projectId);
    expect(usage.logs?.events).toBe(2);
    // Log bytes: the message and the attributes as JSON, as for the native routes.
    expect(usage.logs?.bytes).toBe(Buffer.byteLength('cart loaded{"items":3}cart saved{}'));
    expect(usage.traces?.events).toBe(2);
    expectSuccess(await sendOtlp(svc.baseUrl, 'logs', request, { token: t.ingestKey }), 'protobuf');
    expect(await usageOf(svc, t.projectId)).toEqual(usage);
  });

  for (const as of ['protobuf', 'json'] as const)
    it(`over the plan allowance (${as}): 429 usage_limit_exceeded with Retry-After until the reset, nothing stored`, async () => {
      const pro = await createTenant(svc, { tier: 'pro' });
      expectSuccess(
        await sendOtlp(svc.baseUrl, 'traces', traces([span(), span()]), {
          as,
          token: pro.ingestKey,
        }),
        as,
      );
      const before = await counts(svc, pro);
      const usage = await usageOf(svc, pro.projectId);
      const res = await sendOtlp(svc.baseUrl, 'traces', traces([span(), span()]), {
        as,
        token: pro.ingestKey,
      });
      expectStatus(res, 429, 'usage_limit_exceeded', as, 8);
      expect(res.failure?.metadata.limit).toBe('trace_spans');
      expect(res.failure?.metadata.reset_at).toBe(resetAt);
      expect(res.headers.get('retry-after')).toBe(
        String(Math.ceil((Date.parse(resetAt) - svc.clock.now()) / 1000)),
      );
      expect(await counts(svc, pro)).toEqual(before);
      expect(await usageOf(svc, pro.projectId)).toEqual(usage);
      // The one span that still fits is taken.
      expectSuccess(
        await sendOtlp(svc.baseUrl, 'traces', traces([span()]), { as, token: pro.ingestKey }),
        as,
      );
    });

  it('issues derived from exception events count against the issue allowance: the whole request is refused', async () => {
    const pro = await createTenant(svc, { tier: 'pro' });
    const failing = (n: number) =>
      span({
        status: { code: 2 },
        events: [
          {
            timeUnixNano: nanos('2025-03-03T08:00:00.004Z'),
            name: 'exception',
            attributes: kv({ 'exception.type': 'Err', 'exception.message': `boom ${String(n)}` }),
          },
        ],
      });
    const before = await counts(svc, pro);
    const res = await sendOtlp(svc.baseUrl, 'traces', traces([failing(1), failing(2)]), {
      token: pro.ingestKey,
    });
    expectStatus(res, 429, 'usage_limit_exceeded', 'protobuf', 8);
    expect(res.failure?.metadata.limit).toBe('issue_events');
    expect(await counts(svc, pro)).toEqual(before);
  });
});

describe('OTLP: a request larger than one store batch meeting the allowance part way', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({
      config: {
        planQuotas: { ...defaultPlanQuotas, pro: { ...defaultPlanQuotas.pro, trace_spans: 5_001 } },
      },
    });
  });
  afterAll(() => svc.close());

  it('stores the first 5,000 spans and says in partialSuccess which were not, instead of a 429 the exporter would resend', async () => {
    const pro = await createTenant(svc, { tier: 'pro' });
    const spans = Array.from({ length: 5_003 }, () => span());
    const res = await sendOtlp(svc.baseUrl, 'traces', traces(spans), { token: pro.ingestKey });
    expect(res.status).toBe(200);
    const partial = res.body.partialSuccess as { rejectedSpans: number; errorMessage: string };
    expect(partial.rejectedSpans).toBe(3);
    expect(partial.errorMessage).toContain('3 records not stored');
    expect(partial.errorMessage).toContain('trace_spans allowance');
    expect((await usageOf(svc, pro.projectId)).traces?.events).toBe(5_000);
  }, 60_000);
});

describe('OTLP: request rate and ingest keys', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ config: { ingestRate: { perSecond: 1, burst: 2 } } });
  });
  afterAll(() => svc.close());

  it('the ingest rate limit, shared with the other ingest routes: 429 rate_limited with Retry-After, nothing stored', async () => {
    const t = await createTenant(svc);
    expectSuccess(
      await sendOtlp(svc.baseUrl, 'logs', logs([logRecord()]), { token: t.ingestKey }),
      'protobuf',
    );
    const native = await call(svc.baseUrl, 'POST', '/api/telemetry/ingest', {
      token: t.ingestKey,
      json: { release: 'r@1', environment: 'production', service_name: 'api', logs: [] },
    });
    expect(native.status).not.toBe(429);
    const before = await counts(svc, t);
    const res = await sendOtlp(svc.baseUrl, 'logs', logs([logRecord()]), {
      as: 'json',
      token: t.ingestKey,
    });
    expectStatus(res, 429, 'rate_limited', 'json', 8);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await counts(svc, t)).toEqual(before);
    svc.clock.advance(1000);
    expectSuccess(
      await sendOtlp(svc.baseUrl, 'logs', logs([logRecord()]), { token: t.ingestKey }),
      'protobuf',
    );
  });

  it('no bearer, an account token or a revoked key: 401 ingest_key_invalid in the request encoding', async () => {
    const t = await reader(svc);
    const revoked = await addIngestKey(svc, t.projectId, { revokedAt: svc.clock.now() - 1 });
    const expired = await addIngestKey(svc, t.projectId, { expiresAt: svc.clock.now() - 1 });
    const before = await counts(svc, t);
    for (const token of [undefined, t.token, revoked, expired, 'lk_ingest_not-a-key'])
      for (const as of ['protobuf', 'json'] as const) {
        const res = await sendOtlp(svc.baseUrl, 'traces', traces([span()]), { as, token });
        expectStatus(res, 401, 'ingest_key_invalid', as, 16);
      }
    expect(await counts(svc, t)).toEqual(before);
  });
});

describe('OTLP: a store that cannot take the request', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it('answers 503 with Retry-After, a retryable answer for an exporter, and the retry is stored', async () => {
    const t = await createTenant(svc);
    const telemetry = svc.deps.store.ingest;
    const accept = telemetry.accept.bind(telemetry);
    telemetry.accept = () => Promise.reject(new Error('connection terminated unexpectedly'));
    const request = traces([span()]);
    try {
      for (const as of ['protobuf', 'json'] as const) {
        const res = await sendOtlp(svc.baseUrl, 'traces', request, { as, token: t.ingestKey });
        expectStatus(res, 503, 'service_unavailable', as, 14);
        expect(res.headers.get('retry-after')).toBe('5');
        // The store's own error stays in the service log.
        expect(res.failure?.message).not.toMatch(/connection terminated/);
      }
    } finally {
      telemetry.accept = accept;
    }
    expectSuccess(
      await sendOtlp(svc.baseUrl, 'traces', request, { token: t.ingestKey }),
      'protobuf',
    );
    expect((await counts(svc, t)).spans).toBe(1);
  });
});
