import { and, raw, sql, type SqlFragment } from './sql';

/**
 * Conditions both engines write alike, as fragments (rows/sql.ts): each engine numbers the
 * values its own way. Column names are the callers' own constants, never request input.
 */

/** `column = value` for each exact filter that is set (a null one is not filtered). */
export const exactConditions = (
  exact: readonly (readonly [column: string, value: string | null])[],
): SqlFragment[] =>
  exact.flatMap(([column, value]) => (value === null ? [] : [sql`${raw(column)} = ${value}`]));

/** Newest first strictly after a (time, id) position, on columns `t` and `id`. */
export function afterConditions(
  after: { time: number; id: string } | null,
  t: string,
  id: string,
): SqlFragment[] {
  if (after === null) return [];
  // The plain bound lets the index range stop; the pair decides ties by id.
  return [
    sql`${raw(t)} <= ${after.time}`,
    sql`(${raw(t)} < ${after.time} OR ${raw(id)} < ${after.id})`,
  ];
}

/** Exact filters, `since` and the cursor of a newest-first time list (occurred_at, id). */
export const timeListConditions = (
  q: { since: number | null; after: { time: number; id: string } | null },
  exact: readonly (readonly [column: string, value: string | null])[],
): SqlFragment[] => [
  ...exactConditions(exact),
  ...(q.since === null ? [] : [sql`occurred_at >= ${q.since}`]),
  ...afterConditions(q.after, 'occurred_at', 'id'),
];

/** One project and its exact release, environment and service (a null one is not filtered). */
export const releaseContextConditions = (q: {
  projectId: string;
  release: string | null;
  environment: string | null;
  serviceName: string | null;
}): SqlFragment[] => [
  sql`project_id = ${q.projectId}`,
  ...exactConditions([
    ['release', q.release],
    ['environment', q.environment],
    ['service_name', q.serviceName],
  ]),
];

/**
 * One project's page of a newest-first time list (actions, metric samples): `columns` of
 * `table`, read along its (project_id, occurred_at, id) index, at most `limit` rows.
 */
export const timeListPageStatement = (
  table: string,
  columns: string,
  projectId: string,
  q: { since: number | null; after: { time: number; id: string } | null; limit: number },
  exact: readonly (readonly [column: string, value: string | null])[],
): SqlFragment => sql`SELECT ${raw(columns)} FROM ${raw(table)}
  WHERE ${and([sql`project_id = ${projectId}`, ...timeListConditions(q, exact)])}
  ORDER BY occurred_at DESC, id DESC LIMIT ${q.limit}`;
