import type { Db } from '../../store/sqlite/database';
import { actionPageStatement, toAction, type ActionDbRow } from '../../store/rows/action-record';
import type { ActionListQuery, ActionsStore } from '../../core/store/telemetry/actions';
import { sqliteActionAnalytics } from './action-analytics';
import { mergeNewestFirst } from './newest-first';
import { allRows } from '../../store/sqlite/sqlite-sql';

export function sqliteActions(db: Db): ActionsStore {
  return {
    async list(q: ActionListQuery) {
      return mergeNewestFirst(q.projectIds, q.limit, (projectId) =>
        allRows<ActionDbRow>(db, actionPageStatement(projectId, q)),
      ).map(toAction);
    },

    ...sqliteActionAnalytics(db),
  };
}
