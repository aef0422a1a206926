import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtlpSignal } from '../../otlp/otlp-messages';
import {
  assertFuzz,
  fuzzTimeout,
  nastyJson,
  nastyKey,
  show,
} from '../../test-support/fuzz-arbitraries';
import {
  encode,
  gauge,
  logRecord,
  logs,
  metrics,
  sendOtlp,
  span,
  traces,
  type Encoding,
  type OtlpJson,
} from '../../test-support/otlp';
import { startService, type RunningService } from '../../test-support/start-service';
import { createTenant, tableCounts, type Tenant } from '../../test-support/telemetry';

/**
 * Property-based tests of the OTLP routes (README "OpenTelemetry"): whatever the bytes, never
 * a 5xx; a refused request is a google.rpc.Status in the request's encoding and stores
 * nothing; values of any shape inside a well-formed request are stored or counted rejected,
 * never a failure of the whole request. Budgets as in ingest.fuzz.test.ts ([runs, ms]).
 */
const RUNS = {
  rawBytes: [60, 1_500],
  mutatedProtobuf: [60, 2_000],
  nastyJsonFields: [60, 2_000],
  anyValues: [30, 2_000],
} as const;

const SIGNALS: readonly OtlpSignal[] = ['traces', 'logs', 'metrics'];
const validRequest: Record<OtlpSignal, () => OtlpJson> = {
  traces: () => traces([span()]),
  logs: () => logs([logRecord()]),
  metrics: () => metrics([gauge('queue.depth', 3)]),
};

let svc: RunningService<false>;
let tenant: Tenant;
beforeAll(async () => {
  svc = await startService({ config: { ingestRate: { perSecond: 1e6, burst: 1e6 } } });
  tenant = await createTenant(svc);
});
afterAll(async () => {
  await svc.close();
});

/** Rows of every telemetry table (ClickHouse's) and the usage counters of the tenant's project. */
const snapshot = (): Promise<Record<string, number>> => tableCounts(svc, tenant.projectId);

/** Sends raw bytes; a refusal must be a Status in the request's encoding and change nothing. */
async function expectSafe(signal: OtlpSignal, body: Buffer, as: Encoding, gzip: boolean) {
  const before = await snapshot();
  const answer = await sendOtlp(svc.baseUrl, signal, null, {
    raw: gzip ? gzipSync(body) : body,
    as,
    contentEncoding: gzip ? 'gzip' : undefined,
    token: tenant.ingestKey,
  });
  const why = `${signal} ${as}${gzip ? ' gzip' : ''}: ${show(body.toString(as === 'json' ? 'utf8' : 'base64'))}`;
  expect(answer.status, why).toBeLessThan(500);
  expect(
    answer.contentType.startsWith(as === 'json' ? 'application/json' : 'application/x-protobuf'),
    why,
  ).toBe(true);
  if (answer.status === 200) return answer;
  expect([400, 413], why).toContain(answer.status);
  expect(answer.failure?.reason, why).toMatch(/^[a-z_]+$/);
  expect(answer.failure?.message.length, why).toBeGreaterThan(0);
  expect(await snapshot(), `a refused request changed the store\n${why}`).toEqual(before);
  return answer;
}

describe('OTLP routes under hostile input', () => {
  it(
    'arbitrary bytes, as protobuf or JSON, plain or gzip: never 5xx, a refusal stores nothing',
    async () => {
      await assertFuzz(
        fc.asyncProperty(
          fc.constantFrom(...SIGNALS),
          fc.constantFrom<Encoding>('protobuf', 'json'),
          fc.boolean(),
          fc.uint8Array({ maxLength: 600 }),
          async (signal, as, gzip, bytes) => {
            await expectSafe(signal, Buffer.from(bytes), as, gzip);
          },
        ),
        ...RUNS.rawBytes,
      );
    },
    fuzzTimeout(30_000),
  );

  it(
    'a valid protobuf request with bytes changed, cut or inserted: never 5xx, a refusal stores nothing',
    async () => {
      await assertFuzz(
        fc.asyncProperty(
          fc.constantFrom(...SIGNALS),
          fc.array(
            fc.tuple(
              fc.nat(),
              fc.integer({ min: 0, max: 255 }),
              fc.constantFrom('set', 'cut', 'insert'),
            ),
            { minLength: 1, maxLength: 4 },
          ),
          async (signal, edits) => {
            const bytes = [...encode(signal, validRequest[signal](), 'protobuf')];
            for (const [at, value, kind] of edits) {
              const i = at % (bytes.length + 1);
              if (kind === 'set' && i < bytes.length) bytes[i] = value;
              else if (kind === 'cut') bytes.splice(i, 1);
              else bytes.splice(i, 0, value);
            }
            await expectSafe(signal, Buffer.from(bytes), 'protobuf', false);
          },
        ),
        ...RUNS.mutatedProtobuf,
      );
    },
    fuzzTimeout(30_000),
  );

  it(
    'OTLP/JSON with any JSON value in any field of a record: never 5xx, a refusal stores nothing',
    async () => {
      await assertFuzz(
        fc.asyncProperty(
          fc.constantFrom(...SIGNALS),
          fc.array(fc.tuple(nastyKey, nastyJson), { minLength: 1, maxLength: 3 }),
          fc.boolean(),
          async (signal, fields, onResource) => {
            const request = validRequest[signal]();
            const list = Object.values(request)[0] as OtlpJson[];
            const target = (
              onResource ? list[0] : Object.values(list[0] ?? {}).find(Array.isArray)?.[0]
            ) as OtlpJson | undefined;
            for (const [key, value] of fields)
              if (target)
                Object.defineProperty(target, key, {
                  value,
                  enumerable: true,
                  writable: true,
                  configurable: true,
                });
            await expectSafe(signal, Buffer.from(JSON.stringify(request)), 'json', false);
          },
        ),
        ...RUNS.nastyJsonFields,
      );
    },
    fuzzTimeout(30_000),
  );

  it(
    'attribute values of any OTLP type and nesting: the record is stored or counted rejected, never the request refused',
    async () => {
      type AnyValue = Record<string, unknown>;
      const { value: anyValue } = fc.letrec<{ value: AnyValue }>((tie) => ({
        value: fc.oneof(
          { depthSize: 'small' },
          fc.string().map((s) => ({ stringValue: s })),
          fc.boolean().map((b) => ({ boolValue: b })),
          fc
            .bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
            .map((n) => ({ intValue: String(n) })),
          fc.double().map((d) => ({ doubleValue: Number.isFinite(d) ? d : String(d) })),
          fc
            .uint8Array({ maxLength: 8 })
            .map((b) => ({ bytesValue: Buffer.from(b).toString('base64') })),
          fc.array(tie('value'), { maxLength: 3 }).map((values) => ({ arrayValue: { values } })),
          fc.array(fc.tuple(nastyKey, tie('value')), { maxLength: 3 }).map((kvs) => ({
            kvlistValue: { values: kvs.map(([key, value]) => ({ key, value })) },
          })),
        ),
      }));
      await assertFuzz(
        fc.asyncProperty(
          fc.array(fc.tuple(nastyKey, anyValue), { maxLength: 4 }),
          fc.constantFrom<Encoding>('protobuf', 'json'),
          async (attrs, as) => {
            const request = logs([
              logRecord({ attributes: attrs.map(([key, value]) => ({ key, value })) }),
            ]);
            const before = (await snapshot()).logs ?? 0;
            const answer = await expectSafe('logs', encode('logs', request, as), as, false);
            const why = show(attrs);
            expect(answer.status, why).toBe(200);
            const partial = answer.body.partialSuccess as
              { rejectedLogRecords?: number } | undefined;
            const rejected = Number(partial?.rejectedLogRecords ?? 0);
            const stored = ((await snapshot()).logs ?? 0) - before;
            // A re-drawn record may be one already stored (the same content, the same id).
            expect(rejected + stored, why).toBeLessThanOrEqual(1);
            if (rejected === 0 && stored === 0) return;
            expect(rejected === 1 || stored === 1, why).toBe(true);
          },
        ),
        ...RUNS.anyValues,
      );
    },
    fuzzTimeout(30_000),
  );
});
