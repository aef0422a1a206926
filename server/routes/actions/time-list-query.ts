import { z } from '@hono/zod-openapi';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit } from '../../domain/read-rules/limit';
import { TIME_ID_CURSOR, parseListMode, type ListMode } from '../../domain/read-rules/list-mode';
import { parseProjectScope, type ProjectScope } from '../../domain/read-rules/project-scope';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import {
  EXACT_FACETS,
  PROJECT_IDS_FACETS,
  SINCE_FACETS,
  TIMESTAMP_FACETS,
  UUID_FACETS,
  integerFacets,
  key,
} from '../../http/query-keys';

/**
 * Query keys shared by the actions and metrics lists (spec "Telemetry reads"): scope, exact
 * filters, `since` (no `until`), list mode with `cursor_time` + `cursor_id`, `limit`.
 */
export const timeListKeys = (collection: string) => ({
  project_id: key('One project (UUID). An unreadable project gives `[]`.', UUID_FACETS),
  project_ids: key(
    '2 to 50 distinct project UUIDs, comma-separated. Any unreadable id gives `404`.',
    PROJECT_IDS_FACETS,
  ),
  name: key('Exact name.', EXACT_FACETS),
  service_name: key('Exact service name.', EXACT_FACETS),
  release: key('Exact release.', EXACT_FACETS),
  environment: key('Exact environment.', EXACT_FACETS),
  since: key('`<n>h`, `<n>d` or RFC3339; inclusive; compared with `occurred_at`.', SINCE_FACETS),
  pagination: z
    .enum(['cursor'])
    .optional()
    .openapi({ description: `Send \`cursor\` for a \`{${collection}, next_cursor}\` page.` }),
  cursor_time: key('`next_cursor.time` of the previous page.', TIMESTAMP_FACETS),
  cursor_id: key('`next_cursor.id` of the previous page.', UUID_FACETS),
  limit: key(
    `Rows per page: default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
    integerFacets({ minimum: 1, default: DEFAULT_LIMIT }),
  ),
});

export type TimeListRequest = {
  scope: ProjectScope;
  name: string | null;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  since: number | null;
  mode: ListMode<'cursor_id'>;
  after: { time: number; id: string } | null;
  limit: number;
};

/** Every value checked before access is, so a bad request is a 422 whatever it reads. */
export function parseTimeListQuery(
  q: Record<string, string | undefined>,
  now: number,
): TimeListRequest {
  const scope = parseProjectScope(q);
  const name = exactFilter(q, 'name');
  const serviceName = exactFilter(q, 'service_name');
  const release = exactFilter(q, 'release');
  const environment = exactFilter(q, 'environment');
  const range = parseTimeRange(q, now);
  const mode = parseListMode(q, TIME_ID_CURSOR);
  const limit = parseLimit(q.limit);
  const after =
    mode.mode === 'cursor' && mode.after
      ? { time: mode.after.time, id: mode.after.cursor_id.toLowerCase() }
      : null;
  return { scope, name, serviceName, release, environment, since: range.since, mode, after, limit };
}
