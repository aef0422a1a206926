import { ACTION_COLUMNS, toAction, type ActionDbRow } from '../../rows/action-record';
import { mergeNewestFirstPages } from '../../rows/newest-first';
import type { ActionListQuery, ActionsStore } from '../../../core/store/telemetry/actions';
import { pgActionAnalytics } from './action-analytics';
import type { PgContext } from '../../postgres/pg-context';
import { pgTimeListWhere } from './time-list-where';

export function pgActions({ db }: PgContext): ActionsStore {
  return {
    async list(q: ActionListQuery) {
      const pages = await Promise.all(
        q.projectIds.map((projectId) => {
          const params: unknown[] = [projectId];
          const where = pgTimeListWhere(
            q,
            [
              ['name', q.name],
              ['distinct_id', q.distinctId],
              ['service_name', q.serviceName],
              ['release', q.release],
              ['environment', q.environment],
            ],
            params,
          );
          params.push(q.limit);
          return db.rows<ActionDbRow>(
            `SELECT ${ACTION_COLUMNS}
             FROM actions WHERE ${['project_id = $1', ...where].join(' AND ')}
             ORDER BY occurred_at DESC, id DESC LIMIT $${params.length}`,
            params,
          );
        }),
      );
      return mergeNewestFirstPages(pages, q.limit).map(toAction);
    },

    ...pgActionAnalytics(db),
  };
}
