/** Appends a parameter and returns its `$n`. */
export function param(args: unknown[], value: unknown): string {
  args.push(value);
  return `$${String(args.length)}`;
}

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
  const time = param(args, after.time);
  where.push(`${t} <= ${time}`, `(${t} < ${time} OR ${id} < ${param(args, after.id)})`);
}

/** One project and its exact release, environment and service (a null one is not filtered). */
export function releaseContextWhere(
  q: {
    projectId: string;
    release: string | null;
    environment: string | null;
    serviceName: string | null;
  },
  args: unknown[],
): string[] {
  const where = [`project_id = ${param(args, q.projectId)}`];
  const exact: [string, string | null][] = [
    ['release', q.release],
    ['environment', q.environment],
    ['service_name', q.serviceName],
  ];
  for (const [column, value] of exact)
    if (value !== null) where.push(`${column} = ${param(args, value)}`);
  return where;
}
