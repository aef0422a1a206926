import { invalid } from './read-rule-error';

export const MALFORMED_QUERY = 'invalid query parameters';

const decode = (part: string): string | null => {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
};

/**
 * Parses a raw query string (without `?`) strictly, where URLSearchParams and Hono would
 * guess: bad percent-encoding fails with `invalid query parameters`, a repeated key and a
 * key the route does not accept fail too. Order does not matter.
 */
export function parseStrictQuery(raw: string, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const unknown: string[] = [];
  const known = new Set(allowed);
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = decode(eq === -1 ? '' : part.slice(eq + 1));
    if (key === null || value === null) throw invalid(MALFORMED_QUERY);
    if (!known.has(key)) {
      if (!unknown.includes(key)) unknown.push(key);
      continue;
    }
    if (Object.hasOwn(out, key)) throw invalid(`${MALFORMED_QUERY}: repeated key ${key}`);
    out[key] = value;
  }
  if (unknown.length > 0)
    throw invalid(
      `${MALFORMED_QUERY}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`,
    );
  return out;
}
