import {
  BUNDLE_LIMITS as L,
  boundValue,
  clip,
  newCounter,
  type CutCounter,
} from '../domain/investigation-bounds';

/** The most a list tool returns as JSON; rows past it are left out and counted. */
export const LIST_RESULT_MAX_CHARS = 200_000;

export type ListCoverage = {
  rows: number;
  limit: number;
  more: boolean;
  next_cursor: unknown;
  truncated_strings: number;
  truncated_values: number;
  rows_omitted_for_size: number;
  /** Set when rows were left out for size: the page's cursor would skip them. */
  note?: string;
};

/** One record: its top-level texts at most `text_chars`, nested values as `boundValue` keeps them. */
function boundRow(row: unknown, cut: CutCounter): unknown {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return boundValue(row, cut);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row as Record<string, unknown>))
    out[k] = typeof v === 'string' ? clip(v, L.text_chars, cut) : boundValue(v, cut);
  return out;
}

/** A single record (an issue) cut as list rows are, with what was cut. */
export function boundRecord(record: unknown): {
  record: unknown;
  cut: { truncated_strings: number; truncated_values: number };
} {
  const cut = newCounter();
  const bounded = boundRow(record, cut);
  return {
    record: bounded,
    cut: { truncated_strings: cut.strings, truncated_values: cut.values },
  };
}

/**
 * A list route's rows cut the way the bundles cut their records (spec: bundles are bounded;
 * a tool's list is too): a top-level text at most `text_chars`, nested values (attributes) as
 * `boundValue` keeps them. What was cut is counted in the coverage, as a bundle counts it.
 */
export function boundRows(
  rows: readonly unknown[],
  page: { limit: number; nextCursor: unknown },
): { rows: unknown[]; coverage: ListCoverage } {
  const cut = newCounter();
  const bounded = rows.map((row) => boundRow(row, cut));
  let size = JSON.stringify(bounded).length;
  let omitted = 0;
  while (size > LIST_RESULT_MAX_CHARS && bounded.length > 1) {
    const last = bounded.pop();
    size -= JSON.stringify(last).length + 1;
    omitted += 1;
  }
  return {
    rows: bounded,
    coverage: {
      rows: bounded.length,
      limit: page.limit,
      more: page.nextCursor !== null || omitted > 0,
      // The route's cursor points past the rows left out: it is withheld, never recomputed.
      next_cursor: omitted > 0 ? null : page.nextCursor,
      truncated_strings: cut.strings,
      truncated_values: cut.values,
      rows_omitted_for_size: omitted,
      ...(omitted > 0
        ? { note: 'Rows were left out to keep the result small: read again with a smaller limit.' }
        : {}),
    },
  };
}
