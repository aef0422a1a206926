const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/**
 * A byte count as people read it, in powers of 1,024 (as usage counts them): `0 B`, `512 B`,
 * `1.5 KiB`, `20 MiB`, `1.2 GiB`. Up to three significant digits; a value never rounds into
 * `1024 KiB` (it is `1 MiB`). Anything that is not a count (negative, NaN) is `–`.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = 0;
  while (unit < UNITS.length - 1 && Number(significant(value)) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${significant(value)} ${UNITS[unit] ?? 'B'}`;
}

function significant(value: number): string {
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  const text = value.toFixed(digits);
  return digits === 0 ? text : text.replace(/\.?0+$/, '');
}

const COUNT_UNITS = ['', 'k', 'M', 'bn'] as const;

/** A count on an axis: `950`, `12k`, `1.2M`, `3bn`; never `1000k` (it is `1M`). */
export function formatCompactCount(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const sign = n < 0 ? '-' : '';
  let value = Math.abs(n);
  if (value < 1000) return `${sign}${significant(value)}`;
  let unit = 0;
  while (unit < COUNT_UNITS.length - 1 && Number(significant(value)) >= 1000) {
    value /= 1000;
    unit += 1;
  }
  return `${sign}${significant(value)}${COUNT_UNITS[unit] ?? ''}`;
}
