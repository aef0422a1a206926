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

/**
 * A limit that must lie within its range (spec "Limits": activity `limit` 1 to 200): out of
 * range is a 422 instead of being replaced by the maximum.
 */
export function parseLimitInRange(
  value: string | undefined,
  bounds: { fallback: number; max: number },
): number {
  if (value === undefined) return bounds.fallback;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > bounds.max)
    throw invalid(`limit must be an integer from 1 to ${bounds.max}`);
  return Number(value);
}
