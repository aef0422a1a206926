const STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/**
 * Axis ticks for a byte scale: 0 and round multiples of one unit (B, KiB, MiB, …), at most
 * `max` ticks, the last at or above `top`, so labels read `0 B, 20 MiB, 40 MiB` rather than
 * `14.3 MiB`.
 */
export function byteTicks(top: number, maxTicks = 5): number[] {
  if (!Number.isFinite(top) || top <= 0) return [0];
  let unit = 1;
  while (top / unit >= 1024) unit *= 1024;
  const scaled = top / unit;
  const step = (STEPS.find((s) => Math.ceil(scaled / s) <= maxTicks - 1) ?? 1024) * unit;
  const count = Math.ceil(top / step);
  return Array.from({ length: count + 1 }, (_, i) => i * step);
}
