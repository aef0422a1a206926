/** A row's position in newest-first lists: time, then id, both descending. */
export type TimeIdHead = { occurred_at: number; id: string };

const newestFirst = (a: TimeIdHead, b: TimeIdHead) =>
  b.occurred_at - a.occurred_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Reads each project along its own (project_id, occurred_at, id) index, up to `limit` rows
 * each, and merges: one query over several projects would have to sort every row in range.
 */
export function mergeNewestFirst<R extends TimeIdHead>(
  projectIds: readonly string[],
  limit: number,
  readProject: (projectId: string) => R[],
): R[] {
  if (projectIds.length === 1) return readProject(projectIds[0] ?? '');
  return projectIds
    .flatMap((p) => readProject(p))
    .sort(newestFirst)
    .slice(0, limit);
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
