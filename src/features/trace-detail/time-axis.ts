/** A tick of the time axis: its time (ms from the trace start) and place (0..1 of the view). */
export type TimeTick = { ms: number; at: number };

/** A round step (1, 2 or 5 times a power of ten milliseconds) giving at most `maxTicks`. */
export function tickStep(spanMs: number, maxTicks: number): number {
  if (!(spanMs > 0) || maxTicks < 1) return 1;
  const raw = spanMs / maxTicks;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

/**
 * The ticks of a view from `fromMs` to `toMs` (ms from the trace start): round values only,
 * at most `maxTicks` (plus the one at the start when it is round).
 */
export function timeTicks(fromMs: number, toMs: number, maxTicks: number): TimeTick[] {
  const span = toMs - fromMs;
  if (!(span > 0)) return [{ ms: fromMs, at: 0 }];
  const step = tickStep(span, maxTicks);
  const ticks: TimeTick[] = [];
  const first = Math.ceil(fromMs / step - 1e-9);
  for (let k = first; k * step <= toMs + step * 1e-9; k++) {
    // Multiply instead of adding, so 0.1 + 0.2 errors never accumulate.
    const ms = Number((k * step).toPrecision(12));
    ticks.push({ ms, at: (ms - fromMs) / span });
  }
  return ticks;
}

/**
 * The ticks as vertical 1px lines in one CSS gradient (`color` is a CSS colour or variable),
 * drawn as the tree's background: no element per line, and nothing over the scrolling rows.
 */
export function gridGradient(ticks: readonly TimeTick[], color: string): string {
  const stops = ['transparent 0'];
  for (const t of ticks) {
    const at = `${(t.at * 100).toFixed(4)}%`;
    stops.push(
      `transparent calc(${at} - 0.5px)`,
      `${color} calc(${at} - 0.5px)`,
      `${color} calc(${at} + 0.5px)`,
      `transparent calc(${at} + 0.5px)`,
    );
  }
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
