import { actionPageStatement, toAction, type ActionDbRow } from '../../rows/action-record';
import { mergeNewestFirstPages } from '../../rows/newest-first';
import type { ActionListQuery, ActionsStore } from '../../../core/store/telemetry/actions';
import { pgActionAnalytics } from './action-analytics';
import type { PgContext } from '../../postgres/pg-context';

export function pgActions({ db }: PgContext): ActionsStore {
  return {
    async list(q: ActionListQuery) {
      const pages = await Promise.all(
        q.projectIds.map((projectId) => db.rows<ActionDbRow>(actionPageStatement(projectId, q))),
      );
      return mergeNewestFirstPages(pages, q.limit).map(toAction);
    },

    ...pgActionAnalytics(db),
  };
}
