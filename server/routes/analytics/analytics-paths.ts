import { z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ANALYSIS_UNITS,
  EventMatcherInput,
  EventMatcherOut,
  UNIT_COLUMN,
  analyticsQueryEcho,
  analyticsRangeFields,
  filter,
  fraction,
  matcher,
  matcherEcho,
  analyticsPostRoute,
} from './analytics-body';
import type { FUNNEL_KINDS } from '../../domain/funnel';
import { rate } from '../../domain/funnel';
import { rankPaths } from '../../domain/paths';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { orNull } from '../../http/openapi-shared';
import { registerAnalyticsPost } from './analytics-post';

export const PATHS_MAX_DEPTH = 5;
export const PATHS_MAX_LIMIT = 50;

const PathsRequest = z
  .object({
    ...analyticsRangeFields,
    service_name: filter('service name'),
    release: filter('release'),
    environment: filter('environment'),
    analysis_unit: z.enum(ANALYSIS_UNITS).optional().openapi({ description: 'Default `session`.' }),
    start_event: EventMatcherInput.optional().openapi({
      description: 'Where each path starts; the unit’s first action when omitted.',
    }),
    depth: z
      .number()
      .int('must be an integer')
      .min(1, `must be 1 to ${PATHS_MAX_DEPTH}`)
      .max(PATHS_MAX_DEPTH, `must be 1 to ${PATHS_MAX_DEPTH}`)
      .optional()
      .openapi({
        description: `Actions followed after the start, 1 to ${PATHS_MAX_DEPTH} (default 3).`,
      }),
    limit: z
      .number()
      .int('must be an integer')
      .min(1, `must be 1 to ${PATHS_MAX_LIMIT}`)
      .max(PATHS_MAX_LIMIT, `must be 1 to ${PATHS_MAX_LIMIT}`)
      .optional()
      .openapi({ description: `Paths listed, 1 to ${PATHS_MAX_LIMIT} (default 10).` }),
  })
  .strict()
  .openapi('PathsRequest');

const stepOut = EventMatcherOut;

const PathsResponse = z
  .object({
    schema_version: z.literal(1),
    query: z.object({
      ...analyticsQueryEcho,
      analysis_unit: z.enum(ANALYSIS_UNITS),
      start_event: orNull(stepOut),
      depth: z.number().int(),
      limit: z.number().int(),
    }),
    summary: z.object({
      units: z.number().int().openapi({ description: 'Units with a start.' }),
      distinct_paths: z.number().int(),
    }),
    paths: z.array(
      z.object({
        steps: z.array(stepOut).openapi({ description: 'The start, then up to `depth` actions.' }),
        units: z.number().int(),
        share: fraction('`units` over `summary.units`.'),
      }),
    ),
    truncated: z.boolean().openapi({ description: 'True when more paths occurred than `limit`.' }),
    coverage: z.object({
      events: z.number().int().openapi({ description: 'Actions in range.' }),
      unit_identified_events: z.number().int(),
      excluded_events: z.number().int().openapi({ description: 'Actions without the unit id.' }),
      limitations: z.array(z.string()),
    }),
  })
  .openapi('Paths');

const postPaths = analyticsPostRoute({
  path: '/api/telemetry/analytics/paths',
  summary: 'The most common sequences of actions after a start',
  description:
    'For each unit, its first start action in range and the `depth` actions after it, in time order; units with the same sequence share a path. Most units first, then the sequence.',
  body: PathsRequest,
  response: PathsResponse,
  responseDescription: 'The paths.',
});

export function registerPathsRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerAnalyticsPost(app, deps, postPaths, async (body, { readable, query, echo }) => {
    const analysisUnit = body.analysis_unit ?? 'session';
    const start = matcher(body.start_event);
    const depth = body.depth ?? 3;
    const limit = body.limit ?? 10;
    const counts = readable
      ? await deps.store.actions.paths({
          ...query,
          unit: UNIT_COLUMN[analysisUnit],
          start,
          depth,
        })
      : { events: 0, unitIdentified: 0, units: 0, paths: [] };
    const result = { units: counts.units, paths: rankPaths(counts.paths) };
    return {
      schema_version: 1 as const,
      query: {
        ...echo,
        analysis_unit: analysisUnit,
        start_event: matcherEcho(start),
        depth,
        limit,
      },
      summary: { units: result.units, distinct_paths: result.paths.length },
      paths: result.paths.slice(0, limit).map((p) => ({
        steps: p.steps.map((s) => ({
          kind: s.kind as (typeof FUNNEL_KINDS)[number],
          event_name: s.name,
        })),
        units: p.units,
        share: rate(p.units, result.units),
      })),
      truncated: result.paths.length > limit,
      coverage: {
        events: counts.events,
        unit_identified_events: counts.unitIdentified,
        excluded_events: counts.events - counts.unitIdentified,
        limitations: [
          'Rates are fractions from 0 to 1; a rate whose denominator is 0 is reported as 0.',
          'Actions without the unit id are excluded; actions at the same millisecond keep their storage order.',
          'Repeated actions are kept as they happened (not collapsed).',
        ],
      },
    };
  });
}
