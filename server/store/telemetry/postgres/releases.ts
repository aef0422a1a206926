import { RELEASE_ORDER, toReleaseRow, type ReleaseDbRow } from '../../rows/release-row';
import type { ReleaseListQuery, ReleasesStore } from '../../../core/store/telemetry/releases';
import type { PgContext } from '../../postgres/pg-context';

/** Release rows come from the `release_rows` rollup only (never from telemetry rows). */
export function pgReleases({ db }: PgContext): ReleasesStore {
  return {
    async list(q: ReleaseListQuery) {
      if (q.projectIds.length === 0) return [];
      const params: unknown[] = [q.projectIds];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      const where = ['project_id = ANY($1::text[])'];
      const exact: [string, string | null][] = [
        ['service_name', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [column, value] of exact)
        if (value !== null) where.push(`${column} = ${p(value)}`);
      if (q.since !== null) where.push(`last_seen_at >= ${p(q.since)}`);
      if (q.after !== null) {
        const a = q.after;
        where.push(
          `(last_seen_at, project_id, release, environment, service_name) <
           (${p(a.time)}::bigint, ${p(a.projectId)}::text, ${p(a.release)}::text,
            ${p(a.environment)}::text, ${p(a.serviceName)}::text)`,
        );
      }
      const rows = await db.rows<ReleaseDbRow>(
        `SELECT * FROM release_rows WHERE ${where.join(' AND ')}
         ORDER BY ${RELEASE_ORDER} LIMIT ${p(q.limit)}`,
        params,
      );
      return rows.map(toReleaseRow);
    },
  };
}
