import type { Rng } from './random';
import { DAY_MS, HOUR_MS, type Window } from './world-model';

/**
 * How busy the shop is at a moment: a daytime bump centred on 14:00 UTC (European afternoon,
 * American morning), a quiet night, and calmer weekends. Values are in (0, 1].
 */
export function trafficWeight(t: number): number {
  const hour = (((t % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
  const daytime = Math.exp(-((hour - 14) ** 2) / (2 * 4.5 ** 2));
  const weekday = new Date(t).getUTCDay();
  const weekend = weekday === 0 || weekday === 6 ? 0.7 : 1;
  return (0.12 + 0.88 * daytime) * weekend;
}

export const flatWeight = (): number => 1;

/**
 * `count` moments within `windows`, denser where `weight` is higher (rejection sampling; the
 * weight must stay within (0, 1]). Sorted, oldest first.
 */
export function sampleTimes(
  rng: Rng,
  count: number,
  windows: readonly Window[],
  weight: (t: number) => number = trafficWeight,
): number[] {
  const spans = windows.filter((w) => w.to > w.from);
  const total = spans.reduce((sum, w) => sum + (w.to - w.from), 0);
  if (total <= 0 || count <= 0) return [];
  const out: number[] = [];
  // A weight that is tiny everywhere would loop for long; give up on rejection after a while.
  let attempts = 0;
  while (out.length < count) {
    let offset = rng.next() * total;
    let t = spans[0]?.from ?? 0;
    for (const w of spans) {
      const len = w.to - w.from;
      if (offset < len) {
        t = w.from + offset;
        break;
      }
      offset -= len;
    }
    attempts++;
    if (attempts > count * 50 || rng.next() < weight(t)) out.push(Math.floor(t));
  }
  return out.sort((a, b) => a - b);
}
