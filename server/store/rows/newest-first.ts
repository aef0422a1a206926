/** A row's position in newest-first lists: time, then id, both descending. */
export type TimeIdHead = { occurred_at: number; id: string };

const newestFirst = (a: TimeIdHead, b: TimeIdHead) =>
  b.occurred_at - a.occurred_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Merges the newest-first pages read for each project (each up to `limit` rows, read along
 * its own (project_id, occurred_at, id) index) into one page: one query over several projects
 * would have to sort every row in range.
 */
export function mergeNewestFirstPages<R extends TimeIdHead>(pages: R[][], limit: number): R[] {
  if (pages.length === 1) return pages[0] ?? [];
  return pages.flat().sort(newestFirst).slice(0, limit);
}
