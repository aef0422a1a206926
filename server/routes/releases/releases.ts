import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit } from '../../domain/read-rules/limit';
import { parseListMode, type CursorFamily } from '../../domain/read-rules/list-mode';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import { isUuid } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { projectsInScope } from '../../http/readable-projects';
import { strictQuery } from '../../http/strict-query';
import { releaseView } from '../../views/release-view';
import { iso } from '../../views/telemetry-views';
import { ReleasePageSchema, ReleaseRowSchema } from './release-schema';

export const RELEASE_CURSOR_INCOMPLETE = 'all release cursor fields must be sent together';

type ReleaseCursorField =
  'cursor_project_id' | 'cursor_release' | 'cursor_environment' | 'cursor_service_name';

/** The releases family (spec "Common read rules" 5): blank fields are an incomplete set. */
export const RELEASE_CURSOR: CursorFamily<ReleaseCursorField> = {
  fields: ['cursor_project_id', 'cursor_release', 'cursor_environment', 'cursor_service_name'],
  incomplete: RELEASE_CURSOR_INCOMPLETE,
  blank: RELEASE_CURSOR_INCOMPLETE,
  check: (field, value) => {
    if (value.trim() === '') return RELEASE_CURSOR_INCOMPLETE;
    if (field === 'cursor_project_id' && !isUuid(value)) return 'cursor_project_id must be a UUID';
    return null;
  },
};

const text = (description: string) => z.string().optional().openapi({ description });

const ReleaseListQuery = z
  .object({
    project_id: text('One project (UUID). An unreadable project gives `[]`.'),
    project_ids: text(
      '2 to 50 distinct project UUIDs, comma-separated. Any unreadable id gives `404`.',
    ),
    service_name: text('Exact service name.'),
    release: text('Exact release.'),
    environment: text('Exact environment.'),
    since: text('`<n>h`, `<n>d` or RFC3339; inclusive; compared with the row’s `last_seen_at`.'),
    pagination: z
      .enum(['cursor'])
      .optional()
      .openapi({ description: 'Send `cursor` for a `{releases, next_cursor}` page.' }),
    cursor_time: text('`next_cursor.time` of the previous page.'),
    cursor_project_id: text('`next_cursor.project_id` of the previous page.'),
    cursor_release: text('`next_cursor.release` of the previous page.'),
    cursor_environment: text('`next_cursor.environment` of the previous page.'),
    cursor_service_name: text('`next_cursor.service_name` of the previous page.'),
    limit: text(
      `Rows per page: default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
    ),
  })
  .strict();
const RELEASE_LIST_KEYS = Object.keys(ReleaseListQuery.shape);

const listReleases = createRoute({
  method: 'get',
  path: '/api/telemetry/releases',
  tags: ['telemetry'],
  summary: 'Release rows of readable projects, most recently seen first',
  description:
    'One row per project, release, environment and service; counts describe only that row. ' +
    'Ordered by `last_seen_at`, then `project_id`, `release`, `environment`, `service_name`, all descending. ' +
    'A bare array by default; with `pagination=cursor`, `{releases, next_cursor}`, continued with all five release cursor fields.',
  security: bearerSecurity,
  request: { query: ReleaseListQuery },
  responses: {
    200: jsonContent(z.union([z.array(ReleaseRowSchema), ReleasePageSchema]), 'Matching rows.'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerReleaseRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  app.openapi(
    { ...listReleases, middleware: [auth, strictQuery(RELEASE_LIST_KEYS)] as const },
    async (c) => {
      const q = c.get('strictQuery');
      const scope = parseProjectScope(q);
      const serviceName = exactFilter(q, 'service_name');
      const release = exactFilter(q, 'release');
      const environment = exactFilter(q, 'environment');
      const range = parseTimeRange(q, deps.now());
      const mode = parseListMode(q, RELEASE_CURSOR);
      const limit = parseLimit(q.limit);

      const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
      const after =
        mode.mode === 'cursor' && mode.after
          ? {
              time: mode.after.time,
              projectId: mode.after.cursor_project_id.toLowerCase(),
              release: mode.after.cursor_release,
              environment: mode.after.cursor_environment,
              serviceName: mode.after.cursor_service_name,
            }
          : null;
      const rows = await deps.store.releases.list({
        projectIds,
        serviceName,
        release,
        environment,
        since: range.since,
        after,
        limit: mode.mode === 'cursor' ? limit + 1 : limit,
      });
      const page = rows.slice(0, limit);
      if (mode.mode === 'array') return c.json(page.map(releaseView), 200);
      const last = page[page.length - 1];
      const next_cursor =
        rows.length > limit && last
          ? {
              time: iso(last.lastSeenAt),
              project_id: last.projectId,
              release: last.release,
              environment: last.environment,
              service_name: last.serviceName,
            }
          : null;
      return c.json({ releases: page.map(releaseView), next_cursor }, 200);
    },
  );
}
