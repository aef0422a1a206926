import { describe, expect, it } from 'vitest';
import { createRng } from './random';

describe('createRng', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return [rng.next(), rng.int(1, 6), rng.uuid(), rng.hex(16), rng.logNormal(10, 0.5)];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('draws v4-shaped UUIDs and lowercase hex ids that are never all zero', () => {
    const rng = createRng(1);
    for (let i = 0; i < 500; i++) {
      expect(rng.uuid()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      const id = rng.hex(16);
      expect(id).toMatch(/^[0-9a-f]{16}$/);
      expect(id).not.toMatch(/^0+$/);
    }
    expect(rng.hex(32)).toHaveLength(32);
  });

  it('keeps draws within their bounds', () => {
    const rng = createRng(3);
    for (let i = 0; i < 1000; i++) {
      const n = rng.int(2, 4);
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThanOrEqual(4);
      expect(rng.next()).toBeLessThan(1);
      expect(rng.poisson(3)).toBeGreaterThanOrEqual(0);
    }
    expect(rng.weighted([['only', 1]] as const)).toBe('only');
    expect(() => rng.pick([])).toThrow();
  });

  it('forks independent generators that depend only on the seed and the label', () => {
    const a = createRng(5);
    const b = createRng(5);
    b.next();
    b.next();
    expect(a.fork('logs').uuid()).toBe(b.fork('logs').uuid());
    expect(a.fork('logs').uuid()).not.toBe(a.fork('traces').uuid());
  });
});
