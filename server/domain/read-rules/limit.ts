import { invalid } from './read-rule-error';

/** Page size of the telemetry list routes when `limit` is not sent. */
export const DEFAULT_LIMIT = 100;
/** Largest page; a larger `limit` is replaced by it (spec "Limits": other list `limit`). */
export const MAX_LIMIT = 1000;

/** A positive integer; over the maximum is clamped, 0, negative or non-integer is rejected. */
export function parseLimit(
  value: string | undefined,
  bounds: { fallback: number; max: number } = { fallback: DEFAULT_LIMIT, max: MAX_LIMIT },
): number {
  if (value === undefined) return bounds.fallback;
  if (!/^\d+$/.test(value) || /^0+$/.test(value)) throw invalid('limit must be a positive integer');
  const n = Number(value);
  return n > bounds.max ? bounds.max : n;
}
