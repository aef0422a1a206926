/**
 * PostgreSQL text cannot hold U+0000, which ingest accepts in any free-text field (messages,
 * names, releases, attribute values) and reads accept in any filter. Every string crossing
 * `Sql` is therefore escaped on the way in and unescaped on the way out: U+0000 is stored as
 * U+E000 U+E001 and U+E000 (a private-use character) as U+E000 U+E000. Strings holding
 * neither are untouched. The escape is one-to-one and keeps equality, prefixes and order
 * between strings without those two characters, so ids, exact filters, cursors and
 * "already accepted" behave as on SQLite; only SQL-side lengths, substrings and ordering
 * of a string holding U+0000 or U+E000 see the escaped form.
 */
const ESC = '\uE000';
const NUL_CODE = '\uE001';
const RAW = /[\u0000\uE000]/g; // eslint-disable-line no-control-regex
const ESCAPED = /\uE000([\uE000\uE001])/g;

export function toPgText(s: string): string {
  if (!s.includes('\u0000') && !s.includes(ESC)) return s;
  return s.replace(RAW, (c) => (c === ESC ? ESC + ESC : ESC + NUL_CODE));
}

export function fromPgText(s: string): string {
  if (!s.includes(ESC)) return s;
  return s.replace(ESCAPED, (_m, c: string) => (c === NUL_CODE ? '\u0000' : ESC));
}

const toParam = (v: unknown): unknown =>
  typeof v === 'string' ? toPgText(v) : Array.isArray(v) ? v.map(toParam) : v;

/** Statement parameters with their strings (and strings in arrays) escaped. */
export const toPgParams = (params: readonly unknown[] | undefined): unknown[] | undefined =>
  params?.map(toParam);

const fromValue = (v: unknown): unknown =>
  typeof v === 'string' ? fromPgText(v) : Array.isArray(v) ? v.map(fromValue) : v;

/** Result rows with their string (and string array) columns unescaped, in place. */
export function fromPgRows<R>(rows: R[]): R[] {
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    for (const k in r) {
      const v = r[k];
      if ((typeof v === 'string' && v.includes(ESC)) || Array.isArray(v)) r[k] = fromValue(v);
    }
  }
  return rows;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The string as PostgreSQL will hand it back: text is stored as UTF-8, where a lone surrogate
 * becomes U+FFFD. A cache keyed by strings sent must use this form to find what it reads back.
 */
export const asStoredText = (s: string): string => s.replace(LONE_SURROGATE, '\uFFFD');
