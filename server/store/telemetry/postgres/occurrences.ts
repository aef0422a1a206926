import {
  occurrencesStatement,
  toOccurrence,
  type OccurrenceDbRow,
} from '../../rows/occurrence-record';
import type { OccurrencesStore } from '../../../core/store/telemetry/occurrences';
import type { PgDb } from '../../postgres/pg-database';
import { pgOccurrenceHours } from '../../postgres/occurrence-hours';

export function pgOccurrences(db: PgDb): OccurrencesStore {
  return {
    hours: pgOccurrenceHours(db).hours,

    async list(issueId, after, limit) {
      return (await db.rows<OccurrenceDbRow>(occurrencesStatement(issueId, after, limit))).map(
        toOccurrence,
      );
    },
  };
}
