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
import {
  EXACT_FACETS,
  PROJECT_IDS_FACETS,
  SINCE_FACETS,
  TIMESTAMP_FACETS,
  UUID_FACETS,
  integerFacets,
  key,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
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

const releaseListQuery = (now: () => number) =>
  readQuery(
    {
      project_id: key('One project (UUID). An unreadable project gives `[]`.', UUID_FACETS),
      project_ids: key(
        '2 to 50 distinct project UUIDs, comma-separated. Any unreadable id gives `404`.',
        PROJECT_IDS_FACETS,
      ),
      service_name: key('Exact service name.', EXACT_FACETS),
      release: key('Exact release.', EXACT_FACETS),
      environment: key('Exact environment.', EXACT_FACETS),
      since: key(
        '`<n>h`, `<n>d` or RFC3339; inclusive; compared with the row’s `last_seen_at`.',
        SINCE_FACETS,
      ),
      pagination: z
        .enum(['cursor'])
        .optional()
        .openapi({ description: 'Send `cursor` for a `{releases, next_cursor}` page.' }),
      cursor_time: key('`next_cursor.time` of the previous page.', TIMESTAMP_FACETS),
      cursor_project_id: key('`next_cursor.project_id` of the previous page.', UUID_FACETS),
      cursor_release: key('`next_cursor.release` of the previous page.', EXACT_FACETS),
      cursor_environment: key('`next_cursor.environment` of the previous page.', EXACT_FACETS),
      cursor_service_name: key('`next_cursor.service_name` of the previous page.', EXACT_FACETS),
      limit: key(
        `Rows per page: default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
        integerFacets({ minimum: 1, default: DEFAULT_LIMIT }),
      ),
    },
    (q) => {
      // Every value is checked before access is, so a bad request is a 422 whatever it reads.
      const scope = parseProjectScope(q);
      const serviceName = exactFilter(q, 'service_name');
      const release = exactFilter(q, 'release');
      const environment = exactFilter(q, 'environment');
      const range = parseTimeRange(q, now());
      const mode = parseListMode(q, RELEASE_CURSOR);
      const limit = parseLimit(q.limit);
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
      return { scope, serviceName, release, environment, since: range.since, mode, after, limit };
    },
  );

const listReleases = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/releases',
    tags: ['telemetry'],
    summary: 'Release rows of readable projects, most recently seen first',
    description:
      'One row per project, release, environment and service; counts describe only that row. ' +
      'Ordered by `last_seen_at`, then `project_id`, `release`, `environment`, `service_name`, all descending. ' +
      'A bare array by default; with `pagination=cursor`, `{releases, next_cursor}`, continued with all five release cursor fields.',
    security: bearerSecurity,
    request: { query: releaseListQuery(now) },
    responses: {
      200: jsonContent(z.union([z.array(ReleaseRowSchema), ReleasePageSchema]), 'Matching rows.'),
      ...errorResponses(401, 404, 422),
    },
  });

export function registerReleaseRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  const route = listReleases(deps.now);
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const { scope, mode, limit, ...filters } = c.req.valid('query');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
      const rows = await deps.store.releases.list({
        projectIds,
        ...filters,
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
