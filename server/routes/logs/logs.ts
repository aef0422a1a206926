import { refuseOutsideScope } from '../../auth/delegated-scope';
import { projectsInScope, readableProjectIds } from '../../http/readable-projects';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ATTRIBUTE_FILTERS_MAX,
  ATTRIBUTE_FILTERS_MAX_BYTES,
  attributeFiltersJsonSchema,
  parseAttributeFilters,
} from '../../domain/read-rules/attribute-filters';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit } from '../../domain/read-rules/limit';
import { TIME_ID_CURSOR, parseListMode } from '../../domain/read-rules/list-mode';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import { traceIdFilter } from '../../domain/read-rules/trace-id-filter';
import {
  SEVERITIES,
  SEVERITY_INPUTS,
  normalizeSeverity,
  type Severity,
} from '../../domain/severity';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import {
  bearerSecurity,
  errorResponses,
  jsonContent,
  orNull,
  UuidParam,
} from '../../http/openapi-shared';
import { readPathUuid } from '../../http/path-params';
import {
  EXACT_FACETS,
  PROJECT_IDS_FACETS,
  SINCE_FACETS,
  TRACE_ID_FACETS,
  TIMESTAMP_FACETS,
  UUID_FACETS,
  integerFacets,
  key,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { timeIdPage } from '../../http/time-id-page';
import type { LogStatus } from '../../core/store/telemetry/logs';
import { logView } from '../../views/telemetry-views';
import { LogSchema } from './log-schema';
import { registerLogAttributesRoute } from './log-attributes';
import { registerLogTriageRoute } from './log-triage';
import { registerLogUsageRoute } from './log-usage';

export const SEVERITY_LEVEL_CONFLICT = 'log severity and level filters conflict; use one value';

const LogCursorSchema = z
  .object({
    time: z.string().openapi({ format: 'date-time', description: 'Send as `cursor_time`.' }),
    id: z.string().openapi({ format: 'uuid', description: 'Send as `cursor_id`.' }),
  })
  .openapi('LogCursor');

const LogPageSchema = z
  .object({ logs: z.array(LogSchema), next_cursor: orNull(LogCursorSchema) })
  .openapi('LogPage');

const STATUSES = ['active', 'ignored', 'all'] as const;

/** `attribute_filters` is JSON text (its bytes are counted, not its characters) of this shape. */
const ATTRIBUTE_FILTERS_FACETS = {
  contentMediaType: 'application/json',
  contentSchema: attributeFiltersJsonSchema(),
  'x-max-bytes': ATTRIBUTE_FILTERS_MAX_BYTES,
};

/** The list's query: its keys as documented, and the read rules in the spec's order. */
const logListQuery = (now: () => number) =>
  readQuery(
    {
      project_id: key('One project (UUID). An unreadable project gives `[]`.', UUID_FACETS),
      project_ids: key(
        '2 to 50 distinct project UUIDs, comma-separated. Any unreadable id gives `404`.',
        PROJECT_IDS_FACETS,
      ),
      severity: z
        .enum(SEVERITIES)
        .optional()
        .openapi({ description: 'Effective severity (after rules).' }),
      level: key(
        `Alias of \`severity\`; also accepts ${SEVERITY_INPUTS.filter((s) => !(SEVERITIES as readonly string[]).includes(s)).join(', ')}. Sent with \`severity\`, both must name the same severity.`,
        // A pattern rather than an enum: a value is valid alone, or naming what `severity` names.
        { pattern: `^(${SEVERITY_INPUTS.join('|')})$` },
      ),
      search: key('Case-insensitive substring of the message.'),
      trace_id: key(
        'Exact trace id: 32 lowercase hex characters, as ingestion accepts it.',
        TRACE_ID_FACETS,
      ),
      service_name: key('Exact service name.', EXACT_FACETS),
      release: key('Exact release.', EXACT_FACETS),
      environment: key('Exact environment.', EXACT_FACETS),
      status: z
        .enum(STATUSES)
        .optional()
        .openapi({ description: 'Triage status; `active` by default.' }),
      attribute_filters: key(
        `JSON array of 1 to ${ATTRIBUTE_FILTERS_MAX} filters (at most ${ATTRIBUTE_FILTERS_MAX_BYTES} bytes), all must match. ` +
          'Each: `path` (JSON Pointer), `type` (`string`, `number`, `boolean`), `operator`, `value` (same JSON type), ' +
          'optional `case_sensitive` (strings). Operators: string `eq`, `ne`, `contains`, `starts_with`, `exists`; ' +
          'number `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `exists`; boolean `eq`, `ne`, `exists`. ' +
          '`exists` takes no `value`; `ne` matches only logs that have the path.',
        ATTRIBUTE_FILTERS_FACETS,
      ),
      since: key('`<n>h`, `<n>d` or RFC3339; inclusive.', SINCE_FACETS),
      until: key('RFC3339; exclusive; later than `since`.', TIMESTAMP_FACETS),
      pagination: z
        .enum(['cursor'])
        .optional()
        .openapi({ description: 'Send `cursor` for a `{logs, next_cursor}` page.' }),
      cursor_time: key('`next_cursor.time` of the previous page.', TIMESTAMP_FACETS),
      cursor_id: key('`next_cursor.id` of the previous page.', UUID_FACETS),
      limit: key(
        `Rows per page: default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
        integerFacets({ minimum: 1, default: DEFAULT_LIMIT }),
      ),
    },
    (q) => {
      // Every value is checked before access is, so a bad request is a 422 whatever it reads.
      const scope = parseProjectScope(q);
      const severity = effectiveSeverityFilter(q);
      const range = parseTimeRange(q, now());
      const mode = parseListMode(q, TIME_ID_CURSOR);
      const limit = parseLimit(q.limit);
      const attributeFilters =
        q.attribute_filters === undefined ? [] : parseAttributeFilters(q.attribute_filters);
      const status = parseLogStatus(q.status);
      return {
        scope,
        severity,
        range,
        mode,
        limit,
        attributeFilters,
        status,
        search: q.search ?? null,
        traceId: traceIdFilter(q.trace_id),
        serviceName: exactFilter(q, 'service_name'),
        release: exactFilter(q, 'release'),
        environment: exactFilter(q, 'environment'),
      };
    },
  );

const listLogs = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/logs',
    tags: ['telemetry'],
    summary: 'Logs of readable projects, newest first',
    description:
      'A bare array by default; with `pagination=cursor`, `{logs, next_cursor}`. Follow `next_cursor` until it is `null`, repeating every filter.',
    security: bearerSecurity,
    request: { query: logListQuery(now) },
    responses: {
      200: jsonContent(z.union([z.array(LogSchema), LogPageSchema]), 'Matching logs.'),
      ...errorResponses(401, 404, 422),
    },
  });

const getLog = createRoute({
  method: 'get',
  path: '/api/logs/{log_id}',
  tags: ['telemetry'],
  summary: 'One log',
  security: bearerSecurity,
  request: { params: z.object({ log_id: UuidParam('log_id') }), query: z.object({}).strict() },
  responses: {
    200: jsonContent(LogSchema, 'The log.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

/** Triage status; `active` by default. */
function parseLogStatus(value: string | undefined): LogStatus {
  if (value === undefined) return 'active';
  const status = STATUSES.find((s) => s === value);
  if (status === undefined) throw invalid(`status must be one of ${STATUSES.join(', ')}`);
  return status;
}

/** `severity` and its alias `level`, normalized; both sent must agree. */
function effectiveSeverityFilter(q: Record<string, string | undefined>): Severity | null {
  const severity = q.severity === undefined ? null : normalizeSeverity(q.severity);
  if (q.severity !== undefined && (severity === null || q.severity !== severity))
    throw invalid('severity must be info, warning, error or critical');
  const level = q.level === undefined ? null : normalizeSeverity(q.level);
  if (q.level !== undefined && level === null)
    throw invalid(`level must be one of ${SEVERITY_INPUTS.join(', ')}`);
  if (severity !== null && level !== null && severity !== level)
    throw invalid(SEVERITY_LEVEL_CONFLICT);
  return severity ?? level;
}

export function registerLogRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  // Before `/api/logs/{log_id}`, which would otherwise take `usage` and `attributes` as (invalid) log ids.
  registerLogUsageRoute(app, deps);
  registerLogAttributesRoute(app, deps);
  registerLogTriageRoute(app, deps);
  const auth = requireAccount(deps, { session: false });

  const list = listLogs(deps.now);
  app.openapi(
    { ...list, middleware: [auth, strictQuery(list.request.query)] as const },
    async (c) => {
      const { scope, mode, limit, range, ...filters } = c.req.valid('query');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
      const after =
        mode.mode === 'cursor' && mode.after
          ? { time: mode.after.time, id: mode.after.cursor_id.toLowerCase() }
          : null;
      // One row more than the page tells whether another page exists.
      const rows = await deps.store.logs.list({
        projectIds,
        ...filters,
        since: range.since,
        until: range.until,
        after,
        limit: mode.mode === 'cursor' ? limit + 1 : limit,
      });
      return c.json(timeIdPage(rows, limit, mode, 'logs', logView), 200);
    },
  );

  app.openapi(
    { ...getLog, middleware: [auth, strictQuery(getLog.request.query)] as const },
    async (c) => {
      const logId = readPathUuid(c.req.param('log_id'), 'log_id');
      const { accountId } = c.get('principal');
      const readable = await readableProjectIds(deps, accountId);
      const log = await deps.store.logs.byId([...readable], logId);
      if (!log) {
        await refuseOutsideScope(deps.store.projects, accountId, (ids) =>
          deps.store.logs.byId(ids, logId),
        );
        throw fail.notFound('log not found');
      }
      return c.json(logView(log), 200);
    },
  );
}
