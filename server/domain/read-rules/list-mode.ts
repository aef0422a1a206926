import { invalid } from './read-rule-error';
import { parseRfc3339 } from './time-range';
import { isUuid } from './uuid';

/**
 * The cursor field set of a route family (spec "Common read rules" 5). Every family carries
 * `cursor_time`; the other fields name the row's position. Releases and trace discovery
 * define their own families with this same shape.
 */
export type CursorFamily<F extends string> = {
  /** Cursor keys besides `cursor_time`, e.g. `cursor_id`. */
  fields: readonly F[];
  /** Checks one field's value; returns an error text, or null when the value is fine. */
  check?: (field: F, value: string) => string | null;
  /** Error text for an incomplete set (releases fix theirs). */
  incomplete?: string;
  /** Error text for a blank field (releases use their incomplete-set text). */
  blank?: string;
};

/** logs, issues, actions, metrics and issue occurrences: `cursor_time` + `cursor_id` (a UUID). */
export const TIME_ID_CURSOR: CursorFamily<'cursor_id'> = {
  fields: ['cursor_id'],
  check: (_field, value) => (isUuid(value) ? null : 'cursor_id must be a UUID'),
};

export type CursorPosition<F extends string> = { time: number } & Record<F, string>;

export type ListMode<F extends string> =
  { mode: 'array' } | { mode: 'cursor'; after: CursorPosition<F> | null };

/**
 * Bare array by default; `pagination=cursor` selects the page envelope. Cursor fields need
 * `pagination=cursor` and come as a complete set; `cursor_time` is RFC3339.
 */
export function parseListMode<F extends string>(
  q: Partial<Record<string, string>>,
  family: CursorFamily<F>,
): ListMode<F> {
  const keys: string[] = ['cursor_time', ...family.fields];
  const sent = keys.filter((k) => q[k] !== undefined);
  if (q.pagination !== undefined && q.pagination !== 'cursor')
    throw invalid('pagination only accepts cursor');
  if (q.pagination === undefined) {
    if (sent.length > 0) throw invalid('cursor fields need pagination=cursor');
    return { mode: 'array' };
  }
  if (sent.length === 0) return { mode: 'cursor', after: null };
  if (sent.length !== keys.length)
    throw invalid(family.incomplete ?? `send all cursor fields together: ${keys.join(', ')}`);
  const time = parseRfc3339(q.cursor_time ?? '');
  if (time === null) throw invalid('cursor_time must be an RFC3339 timestamp');
  const after: Record<string, string | number> = { time };
  for (const f of family.fields) {
    const value = q[f] ?? '';
    const problem =
      value === ''
        ? (family.blank ?? `${f} must not be blank`)
        : (family.check?.(f, value) ?? null);
    if (problem !== null) throw invalid(problem);
    after[f] = value;
  }
  return { mode: 'cursor', after: after as CursorPosition<F> };
}
