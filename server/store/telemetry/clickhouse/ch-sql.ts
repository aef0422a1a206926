import type { SqlFragment } from '../../rows/sql';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The string as ClickHouse stores it: strings are UTF-8 bytes, and its JSON input refuses a
 * lone surrogate, so one becomes U+FFFD, as PostgreSQL stores it. Every string a row or a
 * parameter carries goes through this (a filter then matches what was stored).
 */
export const wellFormed = (s: string): string => s.replace(LONE_SURROGATE, '\uFFFD');

/** A value as a parameter or JSONEachRow field: strings (in arrays too) made well-formed. */
const sendable = (v: unknown): unknown =>
  typeof v === 'string' ? wellFormed(v) : Array.isArray(v) ? v.map(sendable) : v;

/** A field of a JSONEachRow row: strings well-formed, and the keys of objects (maps) too. */
const rowField = (_key: string, v: unknown): unknown =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormed(k), x]))
    : sendable(v);

/**
 * A lone surrogate as JSON.stringify writes it: an escape in lower case (a well-formed pair is
 * written as it is). A literal backslash before `ud8…` text matches too, which only costs the
 * slow path.
 */
const ESCAPED_SURROGATE = /\\ud[89a-f]/;

/**
 * JSONEachRow text of rows: one object a line, every string and key well-formed. Text with no
 * lone surrogate (nearly all: ingest already replaced them) is written by plain JSON.stringify;
 * a replacer visiting every key made that a third of a batch's work in the service.
 */
export const jsonEachRow = (rows: readonly object[]): string => {
  const text = rows.map((r) => JSON.stringify(r)).join('\n');
  if (!ESCAPED_SURROGATE.test(text)) return text;
  return rows.map((r) => JSON.stringify(r, rowField)).join('\n');
};

/**
 * JSONEachRow of rows as UTF-8 bytes (one object a line, as `jsonEachRow` writes them), written
 * into `into`, or into a larger buffer when it is too small: the buffer used and the bytes.
 * Written row by row into a buffer the caller reuses, a batch's text is never one large string
 * copied from piece to piece.
 */
export function jsonEachRowBytes(
  rows: readonly object[],
  into: Buffer,
): { buffer: Buffer; bytes: Buffer } {
  let buffer = into;
  let at = 0;
  for (const row of rows) {
    let line = JSON.stringify(row);
    if (ESCAPED_SURROGATE.test(line)) line = JSON.stringify(row, rowField);
    // A UTF-16 unit is at most 3 bytes of UTF-8; then the newline.
    const room = line.length * 3 + 1;
    if (at + room > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, at + room));
      buffer.copy(grown, 0, 0, at);
      buffer = grown;
    }
    at += buffer.write(line, at);
    buffer[at++] = 0x0a;
  }
  return { buffer, bytes: buffer.subarray(0, at) };
}

/** A value with the ClickHouse type its placeholder declares (`{p1:Float64}`). */
export class ChTyped {
  constructor(
    readonly value: unknown,
    readonly type: string,
  ) {}
}

/** `value` sent as a parameter of this ClickHouse type. */
export const typed = (value: unknown, type: string): ChTyped => new ChTyped(value, type);

/**
 * The type a placeholder declares for a value without one: text, a whole number (epoch
 * milliseconds, counts), another number, a flag, or an array of one of those. `typed()` says
 * it where the guess would be wrong (a number attribute compared as Float64, say).
 */
function typeOf(value: unknown): string {
  if (value instanceof ChTyped) return value.type;
  if (typeof value === 'string') return 'String';
  if (typeof value === 'number') return Number.isInteger(value) ? 'Int64' : 'Float64';
  if (typeof value === 'boolean') return 'Bool';
  if (value === null) return 'Nullable(String)';
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (first === undefined || typeof first === 'string') return 'Array(String)';
    if (typeof first === 'number')
      return value.every((v) => Number.isInteger(v)) ? 'Array(Int64)' : 'Array(Float64)';
  }
  throw new Error(`no ClickHouse parameter type for ${typeof value}`);
}

/**
 * A statement built with `sql`…`` as ClickHouse takes it: each value becomes a named, typed
 * placeholder (`{p1:String}`) sent apart from the text, never spliced into it.
 */
export function clickhouseStatement(q: SqlFragment): {
  query: string;
  params: Record<string, unknown>;
} {
  let query = q.pieces[0] ?? '';
  const params: Record<string, unknown> = {};
  q.values.forEach((value, i) => {
    const name = `p${String(i + 1)}`;
    params[name] = sendable(value instanceof ChTyped ? value.value : value);
    query += `{${name}:${typeOf(value)}}${q.pieces[i + 1] ?? ''}`;
  });
  return { query, params };
}

/** A string as a ClickHouse literal: quoted, backslash and quote escaped, controls as `\xHH`. */
const stringLiteral = (s: string): string =>
  // eslint-disable-next-line no-control-regex -- control characters are what it escapes
  `'${s.replace(/[\\'\u0000-\u001f\u007f]/g, (c) =>
    c === '\\' || c === "'" ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  )}'`;

/** A value as a ClickHouse literal (see `typeOf` for the types values have). */
function literal(v: unknown): string {
  if (typeof v === 'string') return stringLiteral(v);
  if (typeof v === 'number')
    return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return 'NULL';
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  throw new Error(`no ClickHouse literal for ${typeof v}`);
}

/**
 * The same statement with each value written into the text as a literal of its placeholder's
 * type (`CAST('…' AS String)`). The embedded engine runs statements with parameters one at a
 * time across the whole process (chdb-node chains them: its binding is not thread-safe), while
 * statements without run side by side on their sessions; the literals are escaped here, every
 * value's text made well-formed first, as parameters are.
 */
export function inlinedStatement(q: SqlFragment): { query: string; params: Record<string, never> } {
  let query = q.pieces[0] ?? '';
  q.values.forEach((value, i) => {
    const v = sendable(value instanceof ChTyped ? value.value : value);
    query += `CAST(${literal(v)} AS ${typeOf(value)})${q.pieces[i + 1] ?? ''}`;
  });
  return { query, params: {} };
}
