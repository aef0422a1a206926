import { mergeNewestFirstPages, type TimeIdHead } from '../../rows/newest-first';

/** Reads each project on its own and merges (see `mergeNewestFirstPages`). */
export function mergeNewestFirst<R extends TimeIdHead>(
  projectIds: readonly string[],
  limit: number,
  readProject: (projectId: string) => R[],
): R[] {
  return mergeNewestFirstPages(projectIds.map(readProject), limit);
}

/** Range, cursor and exact filters of a time list on table alias-free columns. */
export function timeListWhere(
  q: {
    since: number | null;
    after: { time: number; id: string } | null;
  },
  exact: [column: string, value: string | null][],
): { where: string[]; args: (string | number)[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  for (const [column, value] of exact) {
    if (value === null) continue;
    where.push(`${column} = ?`);
    args.push(value);
  }
  if (q.since !== null) {
    where.push('occurred_at >= ?');
    args.push(q.since);
  }
  if (q.after !== null) {
    // The plain bound lets the index range stop; the pair decides ties by id.
    where.push('occurred_at <= ?', '(occurred_at < ? OR id < ?)');
    args.push(q.after.time, q.after.time, q.after.id);
  }
  return { where, args };
}
