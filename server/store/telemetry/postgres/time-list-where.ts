/**
 * Range, cursor and exact filters of a newest-first time list (see sqlite/newest-first.ts),
 * each value appended to `params` and referenced as `$n`.
 */
export function pgTimeListWhere(
  q: {
    since: number | null;
    after: { time: number; id: string } | null;
  },
  exact: [column: string, value: string | null][],
  params: unknown[],
): string[] {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  for (const [column, value] of exact) if (value !== null) where.push(`${column} = ${p(value)}`);
  if (q.since !== null) where.push(`occurred_at >= ${p(q.since)}`);
  if (q.after !== null) {
    // The plain bound lets the index range stop; the pair decides ties by id.
    const time = p(q.after.time);
    where.push(`occurred_at <= ${time}`, `(occurred_at < ${time} OR id < ${p(q.after.id)})`);
  }
  return where;
}
