/** Up to three significant digits, trailing zeros dropped: 1.50 → "1.5", 2.00 → "2", 123.4 → "123". */
function significant(value: number): string {
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  const text = value.toFixed(digits);
  return digits === 0 ? text : text.replace(/\.?0+$/, '');
}

/** The value `significant` shows, as a number (to see whether it rounds into the next unit). */
const shown = (value: number) => Number(significant(value));

/**
 * A duration in milliseconds (fractional: microseconds are kept) as people read it:
 * microseconds below one millisecond (`0.042` → `42 µs`), then `1.5 ms`, `123 ms`, `1.23 s`,
 * `2 min 5 s`, `1 h 4 min`. Rounding never shows a value in the wrong unit (999.7 ms is `1 s`,
 * not `1000 ms`). Anything that is not a duration (negative, NaN) is `–`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms === 0) return '0 ms';
  if (ms < 1) {
    const us = ms * 1000;
    if (shown(us) < 1000) return `${significant(us)} µs`;
  }
  if (shown(ms) < 1000) return `${significant(Math.max(ms, 1))} ms`;
  const s = ms / 1000;
  if (shown(s) < 60) return `${significant(s)} s`;
  const totalSeconds = Math.round(s);
  if (totalSeconds < 3600) {
    const minutes = Math.floor(totalSeconds / 60);
    const seconds = totalSeconds % 60;
    return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
  }
  const totalMinutes = Math.round(totalSeconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
