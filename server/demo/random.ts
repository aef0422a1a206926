/**
 * A small seeded PRNG (mulberry32) and the draws the demo world needs. Everything the demo
 * generates, ids included, comes from here, so the same seed gives the same world.
 */
export type Rng = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  float(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One of the entries, with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  normal(mean: number, sd: number): number;
  /** Skewed positive values (latencies, sizes): the median times e^(sigma * N(0,1)). */
  logNormal(median: number, sigma: number): number;
  /** A count with the given mean (Poisson for small means, normal beyond). */
  poisson(mean: number): number;
  /** `length` lowercase hex characters, never all zero (trace and span ids). */
  hex(length: number): string;
  /** A UUID shaped like v4 (version nibble 4, variant 10xx), drawn from this generator. */
  uuid(): string;
  /**
   * An independent generator for a named part of the world. It depends only on this
   * generator's seed and the label, not on how many draws were made, so adding draws to one
   * part does not reshuffle the others.
   */
  fork(label: string): Rng;
};

/** 32-bit FNV-1a; used to turn a seed and a label into a new seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Two lowercase hex digits of each byte value. */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (length: number): string => {
    // Eight hex digits per draw: ids are most of what the demo draws, so each byte's digits
    // come from a table (Number#toString(16) was a sixth of generating the world).
    let s = '';
    while (s.length < length) {
      const u = (next() * 4294967296) >>> 0;
      s +=
        (BYTE_HEX[u >>> 24] as string) +
        (BYTE_HEX[(u >>> 16) & 255] as string) +
        (BYTE_HEX[(u >>> 8) & 255] as string) +
        (BYTE_HEX[u & 255] as string);
    }
    s = s.slice(0, length);
    // An all-zero trace or span id is invalid in W3C trace context.
    return /^0+$/.test(s) ? `${s.slice(0, -1)}1` : s;
  };
  const normal = (mean: number, sd: number) => {
    // Box-Muller; 1 - next() keeps the logarithm finite.
    const u = 1 - next();
    const v = next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick<T>(items: readonly T[]): T {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    weighted<T>(entries: readonly (readonly [T, number])[]): T {
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [value, w] of entries) {
        r -= w;
        if (r < 0) return value;
      }
      const last = entries[entries.length - 1];
      if (!last) throw new Error('weighted pick from an empty list');
      return last[0];
    },
    normal,
    logNormal: (median, sigma) => median * Math.exp(normal(0, sigma)),
    poisson(mean) {
      if (mean <= 0) return 0;
      if (mean > 30) return Math.max(0, Math.round(normal(mean, Math.sqrt(mean))));
      const limit = Math.exp(-mean);
      let k = 0;
      let p = next();
      while (p > limit) {
        k++;
        p *= next();
      }
      return k;
    },
    hex,
    uuid() {
      const h = hex(32);
      const variant = '89ab'[Math.floor(next() * 4)] ?? '8';
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
    },
    fork: (label) => createRng(hash32(`${seed}:${label}`)),
  };
  return rng;
}
