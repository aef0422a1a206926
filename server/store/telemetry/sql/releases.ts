import { releaseListStatement, toReleaseRow, type ReleaseDbRow } from '../../rows/release-row';
import type { SqlDialect, SqlRunner } from '../../rows/sql';
import type { ReleasesStore } from '../../../core/store/telemetry/releases';

/** Release rows come from the `release_rows` rollup only (never from telemetry rows). */
export function sqlReleases(db: SqlRunner, dialect: SqlDialect): ReleasesStore {
  return {
    async list(q) {
      if (q.projectIds.length === 0) return [];
      return (await db.rows<ReleaseDbRow>(releaseListStatement(q, dialect))).map(toReleaseRow);
    },
  };
}
