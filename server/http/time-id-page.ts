import type { ListMode } from '../domain/read-rules/list-mode';
import { iso } from '../views/telemetry-views';

/**
 * The answer of a list read in the `cursor_time` + `cursor_id` family, given the rows read
 * with one more than `limit`: a bare array, or `{<key>: page, next_cursor}` where
 * `next_cursor` names the last row of the page only when another row exists.
 */
export function timeIdPage<R extends { occurredAt: number; id: string }, V, K extends string>(
  rows: readonly R[],
  limit: number,
  mode: ListMode<'cursor_id'>,
  key: K,
  view: (row: R) => V,
): V[] | (Record<K, V[]> & { next_cursor: { time: string; id: string } | null }) {
  const page = rows.slice(0, limit);
  if (mode.mode === 'array') return page.map(view);
  const last = page[page.length - 1];
  const next_cursor =
    rows.length > limit && last ? { time: iso(last.occurredAt), id: last.id } : null;
  return { [key]: page.map(view), next_cursor } as Record<K, V[]> & {
    next_cursor: { time: string; id: string } | null;
  };
}
