/** `?, ?, …`: one placeholder per value of an IN list. */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Newest first strictly after a (time, id) position, on columns `t` and `id`. */
export function afterCondition(
  after: { time: number; id: string } | null,
  t: string,
  id: string,
  where: string[],
  args: unknown[],
): void {
  if (after === null) return;
  // The plain bound lets the index range stop; the pair decides ties by id.
  where.push(`${t} <= ?`, `(${t} < ? OR ${id} < ?)`);
  args.push(after.time, after.time, after.id);
}

/** One project and its exact release, environment and service (a null one is not filtered). */
export function releaseContextWhere(q: {
  projectId: string;
  release: string | null;
  environment: string | null;
  serviceName: string | null;
}) {
  const where = ['project_id = ?'];
  const args: (string | number)[] = [q.projectId];
  const exact: [string, string | null][] = [
    ['release', q.release],
    ['environment', q.environment],
    ['service_name', q.serviceName],
  ];
  for (const [column, value] of exact) {
    if (value === null) continue;
    where.push(`${column} = ?`);
    args.push(value);
  }
  return { where, args };
}
