import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEVERITY_INPUTS } from '../domain/severity';
import { nastyJson, nastyString, ownObject } from '../test-support/fuzz-arbitraries';
import { NativeEnvelope } from './batch-schemas';
import { quickNativeEnvelope } from './quick-native-envelope';

/** A field that is usually valid, sometimes a near miss, sometimes anything at all. */
const field = <T>(valid: fc.Arbitrary<T>, nearMisses: readonly unknown[]) =>
  fc.oneof(
    { weight: 30, arbitrary: valid },
    { weight: 2, arbitrary: fc.constantFrom(...nearMisses) },
    { weight: 1, arbitrary: nastyJson },
  );

const id = field(
  fc.tuple(fc.uuid(), fc.boolean()).map(([u, upper]) => (upper ? u.toUpperCase() : u)),
  ['0B7C7F0E-3C1D-4E55-9A8E-0D5F7C1E2A10', '0b7c7f0e3c1d4e559a8e0d5f7c1e2a10', '', 7],
);
const timestamp = field(
  fc
    .date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) })
    .map((d) => d.toISOString()),
  ['2026-11-20T14:03:07Z', '2026-11-20T14:03:07+01:00', '2026-02-30T00:00:00Z', '2026-11-20', ''],
);
const severity = field(fc.constantFrom(...SEVERITY_INPUTS), ['INFO', 'notice', '', null]);
const context = field(fc.constantFrom('checkout@2.14.0', 'production', 'api'), [
  '',
  '   ',
  'x'.repeat(200),
  'x'.repeat(201),
  '😀'.repeat(150),
  null,
]);
const message = field(fc.string({ maxLength: 40 }), ['', '😀'.repeat(600_000), null, 3]);
const hex = (n: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
const traceId = field(hex(32), [null, 'A'.repeat(32), 'a'.repeat(31)]);
const spanId = field(hex(16), [null, 'A'.repeat(16), 'a'.repeat(17)]);
const attributes = field(
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
  [[], null, 'a', JSON.parse(`${'{"a":'.repeat(70)}1${'}'.repeat(70)}`) as unknown],
);

/** An object with some of the fields, and now and then a key no schema knows. */
const someOf = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.oneof(
        { weight: 20, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.tuple(nastyString, nastyJson) },
      ),
    )
    .map(([o, extra]) => ownObject([...Object.entries(o), ...(extra ? [extra] : [])]));

const log = fc.oneof(
  { weight: 1, arbitrary: nastyJson },
  {
    weight: 40,
    arbitrary: fc
      .tuple(
        fc.record({ id, occurred_at: timestamp, message }),
        someOf({
          severity,
          level: severity,
          source: field(fc.constantFrom('app', 'worker'), ['', 'x'.repeat(201)]),
          attributes,
          trace_id: traceId,
          span_id: spanId,
          release: context,
          environment: context,
          service_name: context,
        }),
      )
      .map(([required, rest]) => ({ ...required, ...rest })),
  },
);

const envelope = fc.oneof(
  { weight: 1, arbitrary: nastyJson },
  {
    weight: 12,
    arbitrary: fc
      .tuple(
        fc.record({ logs: fc.array(log, { maxLength: 4 }) }),
        someOf({
          project_id: field(fc.uuid(), [null, 3]),
          sdk: field(fc.constant({ name: 'native', version: '1' }), [
            { name: 'native', version: '1', extra: true },
            { name: '', version: '1' },
            { name: 'native' },
          ]),
          release: context,
          environment: context,
          service_name: context,
        }),
      )
      .map(([required, rest]) => ({ ...required, ...rest })),
  },
);

describe('quickNativeEnvelope', () => {
  it('answers what the schema outputs, or leaves the envelope to the schema', () => {
    let checked = 0;
    fc.assert(
      fc.property(envelope, (body) => {
        const quick = quickNativeEnvelope(body);
        if (quick === null) return;
        checked += 1;
        const parsed = NativeEnvelope.safeParse(body);
        expect(parsed.success).toBe(true);
        expect(quick).toEqual(parsed.data);
      }),
      { numRuns: Number(process.env.LOOKOUT_FUZZ_RUNS ?? 1000) },
    );
    // The generated envelopes are mostly the common case, so the comparison is made often.
    expect(checked).toBeGreaterThan(80);
  });

  it('checks the common envelope itself: logs with attributes and envelope defaults', () => {
    const body = {
      release: 'shop@3.1.0',
      environment: 'production',
      service_name: 'storefront-api',
      logs: [
        {
          id: '0B7C7F0E-3C1D-4E55-9A8E-0D5F7C1E2A10',
          occurred_at: '2026-11-20T14:03:07.412Z',
          severity: 'warn',
          message: 'GET /api/cart 200 in 12ms',
          attributes: { http: { method: 'GET', status: 200 }, cache: { hit: true } },
          trace_id: null,
        },
      ],
    };
    const quick = quickNativeEnvelope(body);
    expect(quick?.logs?.[0]?.id).toBe('0b7c7f0e-3c1d-4e55-9a8e-0d5f7c1e2a10');
    expect(quick).toEqual(NativeEnvelope.safeParse(body).data);
  });
});
