import fc from 'fast-check';
import { expect } from 'vitest';
import type { ApiResponse } from './api-client';

/**
 * Generators and checks shared by the property-based (fuzz) contract tests of the ingest
 * bodies and the list query strings.
 *
 * Reproducing a failure: fast-check prints `seed` and `path` of the (shrunk) counterexample.
 * Run the same test again with `LOOKOUT_FUZZ_SEED=<seed>` and `LOOKOUT_FUZZ_PATH=<path>` to
 * replay exactly that case (the seed alone replays the whole search). `LOOKOUT_FUZZ_RUNS=<n>`
 * replaces every property's run count and lifts the time budgets, for a longer local soak.
 */
/** How long a failure's replay may shrink it further before it is reported as it stands. */
export const REPLAY_BUDGET_MS = 10_000;

export async function assertFuzz<Ts extends [unknown, ...unknown[]]>(
  property: fc.IAsyncProperty<Ts>,
  numRuns: number,
  timeBudgetMs: number,
  replayBudgetMs = REPLAY_BUDGET_MS,
): Promise<void> {
  const seed = process.env.LOOKOUT_FUZZ_SEED;
  const path = process.env.LOOKOUT_FUZZ_PATH;
  const runs = process.env.LOOKOUT_FUZZ_RUNS;
  const replay = seed !== undefined;
  const base: fc.Parameters<Ts> = {
    numRuns: runs ? Number(runs) : numRuns,
    ...(seed ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
  };
  if (runs || replay) {
    await fc.assert(property, base);
    return;
  }
  // The search has a time budget: on a machine loaded by other work a run can take five
  // times longer, and the suite must still end in about a minute. Runs stop at the budget
  // without failing. fast-check's budget would also cut the shrinking short, so a failure
  // found in time is replayed from its seed and path and shrunk further, for at most
  // REPLAY_BUDGET_MS: the budget plus the replay stay well inside the shortest test timeout
  // (30 s), so a failure is reported with its counterexample, never hidden by a timeout.
  let found = await fc.check(property, {
    ...base,
    interruptAfterTimeLimit: timeBudgetMs,
    markInterruptAsFailure: false,
  });
  if (!found.failed) return;
  if (found.interrupted && found.counterexample === null) {
    // The budget ran out before one run ended (a machine busy with other work): a few runs
    // without it, each to its end, so the property is still checked rather than passed
    // unchecked; a failure is not shrunk here but in the bounded replay below.
    found = await fc.check(property, {
      ...base,
      numRuns: Math.min(3, base.numRuns ?? numRuns),
      endOnFailure: true,
    });
    if (!found.failed) return;
  }
  if (found.counterexamplePath === null) throw new Error(fc.defaultReportMessage(found));
  const replayed = await fc.check(property, {
    ...base,
    seed: found.seed,
    path: found.counterexamplePath,
    interruptAfterTimeLimit: replayBudgetMs,
    markInterruptAsFailure: false,
  });
  if (replayed.failed && replayed.counterexample !== null) {
    throw new Error(fc.defaultReportMessage(replayed));
  }
  // The replay's budget ran out before the case itself ended: report it as first found.
  if (replayed.numRuns === 0) throw new Error(fc.defaultReportMessage(found));
  // The replay passed: the failure did not repeat; report the first one.
  throw new Error(`not reproduced on replay:\n${fc.defaultReportMessage(found)}`);
}

/**
 * The vitest timeout of a property test: `ms` normally; with LOOKOUT_FUZZ_RUNS (a soak) an
 * hour, since a property cut off by a timeout would keep sending requests in the background.
 */
export function fuzzTimeout(ms: number): number {
  return process.env.LOOKOUT_FUZZ_RUNS ? 3_600_000 : ms;
}

// ---------------------------------------------------------------------------------------------
// Strings

/** Characters that break naive parsers, loggers and SQL/JSON layers. */
const CONTROL = [
  '\u0000',
  '\u0001',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\ufffe',
  '\uffff',
];
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const nastyUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom(...CONTROL) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 2, arbitrary: fc.constantFrom('%', '&', '=', '+', '#', '?', '"', '\\', '/', '~', ',') },
);

/** Keys and values aimed at prototype pollution and at code that indexes plain objects. */
export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
] as const;

const SPECIAL_STRINGS = [
  '',
  ' ',
  '   ',
  '\t\n',
  ...PROTO_KEYS,
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '-1',
  '1e309',
  '1.5',
  '0x10',
  '9'.repeat(400),
  '[]',
  '{}',
  "'; DROP TABLE logs; --",
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%00',
  '\u0000',
  '\ud800',
  '\udfff',
  '\udfff\ud800',
  '🙂',
  'e\u0301',
  'İ',
  'ß',
  '0000-00-00T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2025-02-30T00:00:00Z',
  '2025-03-03T09:00:00+25:00',
  '0000-02-29T00:00:00Z',
  '275760-09-13T00:00:00Z',
  '99999999999999999999h',
  '0h',
  '1000000d',
  '999999d',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

/** Any string, biased towards the ones that break parsers. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: nastyUnit, maxLength: 24 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.string({ unit: nastyUnit, minLength: 1, maxLength: 3 }),
        fc.integer({ min: 100, max: 70_000 }),
      )
      .map(([s, n]) => s.repeat(Math.ceil(n / s.length)).slice(0, n)),
  },
);

/** Numbers JSON can carry (NaN and infinities become null in JSON.stringify). */
export const weirdNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1.5,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    1e21,
    1e308,
    -1e308,
    5e-324,
    86_400_001,
    Number.MAX_VALUE,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Object keys: ordinary, nasty, prototype names. */
export const nastyKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 2, arbitrary: nastyString },
);

/** An arbitrary JSON value with nasty strings, numbers and keys, a few levels deep. */
export const nastyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: nastyString },
    { weight: 2, arbitrary: weirdNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(nastyKey, tie('value')), { maxLength: 4 })
        // Built with defineProperty so a `__proto__` key is an own key, as JSON.parse makes it.
        .map((entries) => ownObject(entries)),
    },
  ),
})).value;

/** A plain object whose keys are all own properties, `__proto__` included. */
export function ownObject(
  entries: readonly (readonly [string, unknown])[],
): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

/** JSON text nested `depth` levels deep, as arrays or objects, around `inner`. */
export function deeplyNested(depth: number, asObject: boolean, inner = '1'): string {
  return asObject
    ? `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`
    : `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
}

// ---------------------------------------------------------------------------------------------
// Envelope checks

export type EnvelopeRule = {
  /** Statuses a rejection may have for this kind of input. */
  statuses: readonly number[];
};

/** The code(s) the spec allows for each status on the routes under test. */
const CODES_BY_STATUS: Record<number, readonly string[]> = {
  400: ['invalid_json'],
  401: ['ingest_key_invalid', 'unauthorized'],
  404: ['not_found'],
  413: ['invalid_json'],
  415: ['invalid_json'],
  422: ['invalid_json', 'validation_failed'],
  429: ['usage_limit_exceeded', 'rate_limited'],
};

/**
 * Never a 5xx; a rejection is the spec's error envelope (`error`, `code`, `next`,
 * `next_action {code, target}`) with a status from `allowed` and a code that status may carry.
 */
export function expectNoServerErrorAndEnvelope(
  res: ApiResponse,
  allowed: readonly number[],
  context: string,
): void {
  const where = `${context}\n→ ${res.status} ${res.text.slice(0, 500)}`;
  expect(res.status, where).toBeLessThan(500);
  if (res.status === 200) return;
  expect(allowed, where).toContain(res.status);
  expect(res.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
  const body = res.body as Record<string, unknown> | null;
  expect(body, where).toBeTypeOf('object');
  expect(body, where).not.toBeNull();
  const b = body as Record<string, unknown>;
  expect(CODES_BY_STATUS[res.status] ?? [], where).toContain(b.code);
  expect(typeof b.error === 'string' && b.error !== '', where).toBe(true);
  expect(typeof b.next === 'string' && b.next !== '', where).toBe(true);
  const action = b.next_action as Record<string, unknown> | null;
  expect(action, where).toBeTypeOf('object');
  expect(typeof action?.code === 'string' && action.code !== '', where).toBe(true);
  expect(typeof action?.target === 'string' && action.target !== '', where).toBe(true);
  const fixAction =
    b.code === 'validation_failed'
      ? 'fix_request'
      : b.code === 'invalid_json'
        ? 'send_valid_json'
        : null;
  if (fixAction) expect(action, where).toMatchObject({ code: fixAction, target: 'request' });
}

/** Exactly this rejection, in the envelope. */
export function expectRejection(
  res: ApiResponse,
  status: number,
  code: string,
  context: string,
): void {
  expectNoServerErrorAndEnvelope(res, [status], context);
  expect(res.status, `${context}\n→ ${res.status} ${res.text.slice(0, 500)}`).toBe(status);
  expect((res.body as { code?: unknown }).code, context).toBe(code);
}

/** Describes a value for an assertion message without flooding the output. */
export function show(value: unknown, max = 600): string {
  let s: string;
  try {
    s = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}
