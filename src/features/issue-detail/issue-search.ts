import { z } from 'zod/mini';
import type { OccurrenceCursor } from '../../api/queries/issue-detail';
import { searchEnum, searchInt, searchMatching } from '../../lib/search-fields';
import { isUuid } from '../../lib/project-scope';
import { isRfc3339 } from '../../lib/time-range';

/** The highest position the URL takes (far beyond any issue's occurrences a person pages). */
const MAX_POSITION = 1_000_000_000;

/** `<time>_<occurrence id>`: the service's `next_cursor` as the URL writes it. */
export function cursorText(cursor: OccurrenceCursor): string {
  return `${cursor.time}_${cursor.id}`;
}

export function parseCursorText(text: string): OccurrenceCursor | null {
  const at = text.lastIndexOf('_');
  if (at < 0) return null;
  const time = text.slice(0, at);
  const id = text.slice(at + 1);
  return isRfc3339(time) && isUuid(id) ? { time, id } : null;
}

/**
 * The issue page's own search (beside the layout's scope and range), so the occurrence read
 * and how its stack is shown are a link: `occurrence` is its position counted from the latest
 * (1, the default, is never written) and `before` the cursor that reads it (the service's
 * `next_cursor` of the occurrence before, exactly); `stack` is `raw` (the text as sent) or
 * `all` (library frames unfolded). Invalid values fall back to the latest occurrence.
 */
export const issueSearchSchema = z.object({
  occurrence: searchInt(2, MAX_POSITION),
  before: searchMatching((text) => parseCursorText(text) !== null),
  stack: searchEnum(['raw', 'all']),
});

export type IssueSearch = z.infer<typeof issueSearchSchema>;

export type StackView = 'frames' | 'raw' | 'all';

/** The occurrence a search reads: the latest (position 1, no cursor) unless both keys are set. */
export function occurrenceOf(search: IssueSearch): {
  position: number;
  cursor: OccurrenceCursor | null;
} {
  const cursor = search.before === undefined ? null : parseCursorText(search.before);
  if (cursor === null || search.occurrence === undefined) return { position: 1, cursor: null };
  return { position: search.occurrence, cursor };
}

/** The search keys of the occurrence at a position (the latest has none). */
export function occurrenceSearch(
  position: number,
  cursor: OccurrenceCursor | null,
): Pick<IssueSearch, 'occurrence' | 'before'> {
  if (position <= 1 || cursor === null) return { occurrence: undefined, before: undefined };
  return { occurrence: position, before: cursorText(cursor) };
}
