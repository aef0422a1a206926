/** `just now`, `4m ago`, `3h ago`, `2d ago`: coarse, for scanning; the exact UTC time goes in a title. */
export function traceAge(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return 'just now';
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ago`;
  return `${Math.floor(h / 24)}d ago`;
}

/** The first `max` values and how many more there are: `{shown: ['a', 'b'], more: 3}`. */
export function firstOf<T>(values: readonly T[], max: number): { shown: T[]; more: number } {
  return { shown: values.slice(0, max), more: Math.max(0, values.length - max) };
}

/** `web@1.8.2`, `web@1.8.2 +2`, or `—` for none: a compact cell; the full list goes in a title. */
export function compactList(values: readonly string[]): string {
  const [first] = values;
  if (first === undefined) return '—';
  return values.length === 1 ? first : `${first} +${values.length - 1}`;
}

/** `3 error spans`, `1 error span`. */
export function errorSpanLabel(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'error span' : 'error spans'}`;
}
