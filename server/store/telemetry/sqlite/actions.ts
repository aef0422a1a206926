import type { Db } from '../../sqlite/database';
import { ACTION_COLUMNS, toAction, type ActionDbRow } from '../../rows/action-record';
import type { ActionListQuery, ActionsStore } from '../../../core/store/telemetry/actions';
import { sqliteActionAnalytics } from './action-analytics';
import { mergeNewestFirst, timeListWhere } from './newest-first';

export function sqliteActions(db: Db): ActionsStore {
  return {
    async list(q: ActionListQuery) {
      return mergeNewestFirst(q.projectIds, q.limit, (projectId) => {
        const { where, args } = timeListWhere(q, [
          ['name', q.name],
          ['distinct_id', q.distinctId],
          ['service_name', q.serviceName],
          ['release', q.release],
          ['environment', q.environment],
        ]);
        return db
          .prepare<(string | number)[], ActionDbRow>(
            `SELECT ${ACTION_COLUMNS}
             FROM actions WHERE ${['project_id = ?', ...where].join(' AND ')}
             ORDER BY occurred_at DESC, id DESC LIMIT ?`,
          )
          .all(projectId, ...args, q.limit);
      }).map(toAction);
    },

    ...sqliteActionAnalytics(db),
  };
}
