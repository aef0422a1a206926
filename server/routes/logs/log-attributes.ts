import { projectsInScope } from '../../http/readable-projects';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { INDEX_LIMITS } from '../../domain/attribute-index';
import { JSON_POINTER } from '../../domain/read-rules/attribute-filters';
import {
  CATALOG_COUNT_MAX,
  CATALOG_SEARCH_MAX_BYTES,
  CATALOG_SEARCH_PATTERN,
  parseCatalogCursor,
  parseCatalogSearch,
  parseCatalogType,
} from '../../domain/read-rules/catalog-query';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit } from '../../domain/read-rules/limit';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import { SEVERITIES, type Severity } from '../../domain/severity';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent, orNull } from '../../http/openapi-shared';
import {
  PROJECT_IDS_FACETS,
  SINCE_FACETS,
  UUID_FACETS,
  enumFacets,
  integerFacets,
  key,
  requiredKey,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';

const ATTRIBUTE_TYPES = ['string', 'number', 'boolean'] as const;

/** `search`: bytes are counted (UTF-8), and no C0, DEL or C1 control character is allowed. */
const CATALOG_SEARCH_FACETS = {
  minLength: 1,
  maxLength: CATALOG_SEARCH_MAX_BYTES,
  pattern: CATALOG_SEARCH_PATTERN,
  'x-max-bytes': CATALOG_SEARCH_MAX_BYTES,
};
const JSON_POINTER_FACETS = { pattern: JSON_POINTER.source };

const CatalogAttributeSchema = z
  .object({
    path: z.string().openapi({
      description: 'JSON Pointer (`~0` for `~`, `~1` for `/`); copy it into `attribute_filters`.',
      example: '/http/status',
    }),
    type: z.enum(ATTRIBUTE_TYPES),
    observed_count: z.number().int().openapi({
      description:
        'Logs in the range having this path with a value of this type. One log has many paths: do not sum these into a log count.',
    }),
    last_seen_at: z.string().openapi({ format: 'date-time', description: 'Newest such log.' }),
  })
  .openapi('LogAttribute');

const CoverageSchema = z
  .object({
    total_logs: z.number().int().openapi({
      description: 'Logs in the scope, range and severity: the sum of the three groups below.',
    }),
    indexed_logs: z
      .number()
      .int()
      .openapi({ description: 'Logs whose every string, number and boolean value is searchable.' }),
    partially_indexed_logs: z.number().int().openapi({
      description:
        'Logs with some values beyond the index limits (deeper than `max_depth`, past `max_attributes_per_log`, strings over `max_string_bytes`, values inside arrays). Filters search the rest.',
    }),
    unindexed_logs: z.number().int().openapi({
      description:
        'Logs with attributes of which none is searchable. They match no attribute filter but appear in lists without `attribute_filters`.',
    }),
    index_limits: z
      .object({
        max_depth: z.number().int().openapi({ example: INDEX_LIMITS.maxDepth }),
        max_attributes_per_log: z
          .number()
          .int()
          .openapi({ example: INDEX_LIMITS.maxAttributesPerLog }),
        max_string_bytes: z.number().int().openapi({ example: INDEX_LIMITS.maxStringBytes }),
      })
      .openapi('AttributeIndexLimits'),
  })
  .openapi('LogAttributeCoverage', {
    description:
      'Which logs an attribute filter can search. Not changed by `type`, `search` or the cursor.',
  });

const CatalogCursorSchema = z
  .object({
    observed_count: z.number().int().openapi({ description: 'Send as `cursor_observed_count`.' }),
    path: z.string().openapi({ description: 'Send as `cursor_path`.' }),
    type: z.enum(ATTRIBUTE_TYPES).openapi({ description: 'Send as `cursor_type`.' }),
  })
  .openapi('LogAttributeCursor');

const CatalogSchema = z
  .object({
    attributes: z.array(CatalogAttributeSchema),
    coverage: CoverageSchema,
    next_cursor: orNull(CatalogCursorSchema).openapi({
      description: '`null` on the last page. An empty `attributes` does not mean no logs.',
    }),
  })
  .openapi('LogAttributeCatalog');

const catalogQuery = (now: () => number) =>
  readQuery(
    {
      project_id: key(
        'One project (UUID). An unreadable project gives an empty catalog.',
        UUID_FACETS,
      ),
      project_ids: key(
        '2 to 50 distinct project UUIDs, comma-separated. Any unreadable id gives `404`.',
        PROJECT_IDS_FACETS,
      ),
      since: requiredKey(
        'Required. `<n>h`, `<n>d` or RFC3339; inclusive. The range runs to now.',
        SINCE_FACETS,
      ),
      type: z.enum(ATTRIBUTE_TYPES).optional().openapi({ description: 'Only paths of this type.' }),
      search: key(
        `Case-insensitive path substring, 1 to ${CATALOG_SEARCH_MAX_BYTES} bytes, no control characters.`,
        CATALOG_SEARCH_FACETS,
      ),
      severity: z
        .enum(SEVERITIES)
        .optional()
        .openapi({ description: 'Captured severity (not the severity after log rules).' }),
      limit: key(
        `Paths per page: default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
        integerFacets({ minimum: 1, default: DEFAULT_LIMIT }),
      ),
      cursor_observed_count: key(
        '`next_cursor.observed_count` of the previous page.',
        integerFacets({ minimum: 0, maximum: CATALOG_COUNT_MAX, digits: 15 }),
      ),
      cursor_path: key('`next_cursor.path` of the previous page.', JSON_POINTER_FACETS),
      cursor_type: key('`next_cursor.type` of the previous page.', enumFacets(ATTRIBUTE_TYPES)),
    },
    (q) => {
      const scope = parseProjectScope(q);
      const since = parseTimeRange({ since: q.since }, now()).since ?? 0;
      const type = parseCatalogType(q.type);
      const search = parseCatalogSearch(q.search);
      const severity = parseCapturedSeverity(q.severity);
      const limit = parseLimit(q.limit);
      const after = parseCatalogCursor(q);
      return { scope, since, type, search, severity, limit, after };
    },
  );

const getCatalog = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/logs/attributes',
    tags: ['telemetry'],
    summary: 'Attribute paths of the logs in a range, most observed first',
    description:
      'Paths (JSON Pointer) and types seen in the logs of the scope from `since` until now, with how many logs have each and when it was last seen, ' +
      'ordered by `observed_count` descending, then `path`, then `type`. `coverage` says how many of those logs attribute filters can search. ' +
      'Continue with the three cursor fields of `next_cursor`, repeating every other key; there is no `pagination` key.',
    security: bearerSecurity,
    request: { query: catalogQuery(now) },
    responses: {
      200: jsonContent(CatalogSchema, 'One page of the catalog and the coverage of the range.'),
      ...errorResponses(401, 404, 422),
    },
  });

/** Catalog `severity`: canonical values only, compared with the captured severity. */
function parseCapturedSeverity(value: string | undefined): Severity | null {
  if (value === undefined) return null;
  const severity = SEVERITIES.find((s) => s === value);
  if (severity === undefined) throw invalid(`severity must be one of ${SEVERITIES.join(', ')}`);
  return severity;
}

export function registerLogAttributesRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const route = getCatalog(deps.now);
  app.openapi(
    {
      ...route,
      middleware: [
        requireAccount(deps, { session: false }),
        strictQuery(route.request.query),
      ] as const,
    },
    async (c) => {
      const { scope, since, type, search, severity, limit, after } = c.req.valid('query');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
      const catalog = await deps.store.logs.catalog({
        projectIds,
        since,
        severity,
        type,
        search,
        after,
        limit,
      });
      const attributes = catalog.attributes.map((a) => ({
        path: a.path,
        type: a.type,
        observed_count: a.observedCount,
        last_seen_at: new Date(a.lastSeenAt).toISOString(),
      }));
      const last = attributes[attributes.length - 1];
      const next_cursor =
        catalog.hasMore && last
          ? { observed_count: last.observed_count, path: last.path, type: last.type }
          : null;
      return c.json({ attributes, coverage: catalog.coverage, next_cursor }, 200);
    },
  );
}
