import { invalid } from './read-rule-error';

/**
 * An exact-match filter (`service_name`, `release`, `environment`, `name`, …): absent, or a
 * non-blank value compared as sent. A blank value would match nothing ingestion stores, so it
 * is refused rather than answered with an empty result.
 */
export function exactFilter(q: Record<string, string | undefined>, key: string): string | null {
  const value = q[key];
  if (value === undefined) return null;
  if (value.trim() === '') throw invalid(`${key} must not be blank`);
  return value;
}
