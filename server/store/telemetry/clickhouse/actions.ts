import type { ActionListQuery, ActionsStore } from '../../../core/store/telemetry/actions';
import type { InvestigationsStore } from '../../../core/store/telemetry/investigations';
import { toAction, type ActionDbRow } from '../../rows/action-record';
import { join, raw, sql } from '../../rows/sql';
import { clickhouseActionAnalytics } from './action-analytics';
import type { ChDb } from './clickhouse-db';
import { time } from './ch-time';
import { timeListPage } from './time-list-page';

/** The columns of an action as the reads return it (its time as epoch milliseconds). */
const COLUMNS = raw(`id, project_id, toUnixTimestamp64Milli(occurred_at) AS occurred_ms,
  toString(name) AS name, toString(kind) AS kind, distinct_id, session_id, properties,
  environment, release, service_name, trace_id, span_id, sdk_name, sdk_version`);

type ActionChRow = Omit<ActionDbRow, 'occurred_at'> & { occurred_ms: number };

const toRecord = ({ occurred_ms, ...r }: ActionChRow) =>
  toAction({ ...r, occurred_at: occurred_ms });

/** Actions in ClickHouse: the list, the analytics reads and the reads of an investigation. */
export function clickhouseActions(db: ChDb): ActionsStore {
  return {
    async list(q: ActionListQuery) {
      const rows = await timeListPage<ActionChRow>(db, 'actions', COLUMNS, q, [
        ['distinct_id', q.distinctId],
      ]);
      return rows.map(toRecord);
    },
    ...clickhouseActionAnalytics(db),
  };
}

/** The action reads of an investigation (`action`, `sessionNeighbours`) on ClickHouse. */
export function clickhouseActionInvestigations(
  db: ChDb,
): Pick<InvestigationsStore, 'action' | 'sessionNeighbours'> {
  return {
    async action(projectIds, actionId) {
      if (projectIds.length === 0) return null;
      // The id ledger knows the action's project and time: the read then narrows to those
      // along the primary key instead of comparing every action's id.
      const known = await db.rows<{ project_id: string; first: number; last: number }>(
        sql`SELECT project_id, toUnixTimestamp64Milli(min(occurred_at)) AS first,
            toUnixTimestamp64Milli(max(occurred_at)) AS last
          FROM accepted_ids
          WHERE project_id IN ${projectIds} AND kind = 'action' AND id = ${actionId}
          GROUP BY project_id`,
      );
      if (known.length === 0) return null;
      const where = join(
        known.map(
          (k) =>
            sql`(project_id = ${k.project_id} AND occurred_at >= ${time(k.first)}
              AND occurred_at <= ${time(k.last)})`,
        ),
        ' OR ',
      );
      const row = await db.one<ActionChRow>(
        sql`SELECT ${COLUMNS} FROM actions WHERE (${where}) AND id = ${actionId} LIMIT 1`,
      );
      return row ? toRecord(row) : null;
    },

    async sessionNeighbours(action, windowMs, limit) {
      if (action.sessionId === null) return { before: [], after: [] };
      const base = sql`SELECT ${COLUMNS} FROM actions
        WHERE project_id = ${action.projectId} AND session_id = ${action.sessionId}`;
      const at = action.occurredAt;
      const [before, after] = await Promise.all([
        db.rows<ActionChRow>(sql`${base} AND occurred_at >= ${time(at - windowMs)}
          AND occurred_at <= ${time(at)}
          AND (occurred_at < ${time(at)} OR id < ${action.id})
          ORDER BY occurred_at DESC, id DESC LIMIT ${limit}`),
        db.rows<ActionChRow>(sql`${base} AND occurred_at <= ${time(at + windowMs)}
          AND occurred_at >= ${time(at)}
          AND (occurred_at > ${time(at)} OR id > ${action.id})
          ORDER BY occurred_at ASC, id ASC LIMIT ${limit}`),
      ]);
      return { before: before.map(toRecord).reverse(), after: after.map(toRecord) };
    },
  };
}
