import type { Db } from '../../sqlite/database';
import { RELEASE_ORDER, toReleaseRow, type ReleaseDbRow } from '../../rows/release-row';
import type { ReleaseListQuery, ReleasesStore } from '../../../core/store/telemetry/releases';

export { toReleaseRow, type ReleaseDbRow };

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Release rows come from the `release_rows` rollup only (never from telemetry rows). */
export function sqliteReleases(db: Db): ReleasesStore {
  return {
    async list(q: ReleaseListQuery) {
      if (q.projectIds.length === 0) return [];
      const where = [`project_id IN (${marks(q.projectIds.length)})`];
      const args: (string | number)[] = [...q.projectIds];
      const exact: [string, string | null][] = [
        ['service_name', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [column, value] of exact) {
        if (value === null) continue;
        where.push(`${column} = ?`);
        args.push(value);
      }
      if (q.since !== null) {
        where.push('last_seen_at >= ?');
        args.push(q.since);
      }
      if (q.after !== null) {
        where.push(
          '(last_seen_at, project_id, release, environment, service_name) < (?, ?, ?, ?, ?)',
        );
        args.push(
          q.after.time,
          q.after.projectId,
          q.after.release,
          q.after.environment,
          q.after.serviceName,
        );
      }
      args.push(q.limit);
      return db
        .prepare<(string | number)[], ReleaseDbRow>(
          `SELECT * FROM release_rows WHERE ${where.join(' AND ')}
           ORDER BY ${RELEASE_ORDER} LIMIT ?`,
        )
        .all(...args)
        .map(toReleaseRow);
    },
  };
}
