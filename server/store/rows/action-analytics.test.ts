import { describe, expect, it } from 'vitest';
import { reachedSteps } from '../../domain/funnel';
import { reachedStepsInAnyOrder } from './action-analytics';

describe('reachedStepsInAnyOrder', () => {
  it('answers what reachedSteps answers for the same events in time order', () => {
    let s = 11;
    const r = () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
    let unsorted = 0;
    for (let unit = 0; unit < 500; unit++) {
      const n = 1 + Math.floor(r() * 12);
      // Few distinct times, so ties are common; masks of a 4-step funnel, one repeated step.
      const events = Array.from({ length: n }, () => ({
        at: Math.floor(r() * 8) * 1000,
        mask: [1, 2, 4, 8, 5][Math.floor(r() * 5)] ?? 1,
      }));
      const sorted = [...events].sort((a, b) => a.at - b.at);
      if (events.some((e, i) => i > 0 && e.at < (events[i - 1]?.at ?? 0))) unsorted++;
      for (const windowMs of [0, 2000, 10_000])
        expect(
          reachedStepsInAnyOrder(
            events.map((e) => e.at),
            events.map((e) => e.mask),
            windowMs,
          ),
        ).toBe(
          reachedSteps(
            sorted.map((e) => e.at),
            sorted.map((e) => e.mask),
            windowMs,
          ),
        );
    }
    expect(unsorted).toBeGreaterThan(100);
  });
});
