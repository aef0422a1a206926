import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { assertFuzz } from './fuzz-arbitraries';

describe('assertFuzz', () => {
  // Each run is slow, as a request to a loaded service is: shrinking the counterexample fully
  // takes about 200 runs, far past the test's timeout. The replay's budget stops the shrinking
  // and reports the case as it stands (a CI run once timed out instead, hiding the case).
  it.each([
    ['a failure found within the search budget', 40],
    ['a first run that ends after the search budget', 400],
  ])(
    'reports %s with its counterexample before the test times out',
    async (_case, runMs) => {
      const slowFailing = fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 100, maxLength: 100 }),
        async (xs) => {
          await sleep(runMs);
          expect(xs.every((x) => x < 1_000)).toBe(true);
        },
      );
      await expect(assertFuzz(slowFailing, 50, 200, 300)).rejects.toThrow(/Counterexample/);
    },
    5_000,
  );

  it('passes a property that holds', async () => {
    await assertFuzz(
      fc.asyncProperty(fc.integer(), async (n) => {
        expect(Number.isInteger(n)).toBe(true);
      }),
      50,
      1_000,
    );
  });
});
