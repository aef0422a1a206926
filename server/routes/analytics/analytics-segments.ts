import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import {
  ANALYSIS_UNITS,
  EventMatcherInput,
  EventMatcherOut,
  UNIT_COLUMN,
  analyticsRangeFields,
  count,
  filter,
  fraction,
  matcher,
  matcherEcho,
  analyticsPostRoute,
} from './analytics-body';
import { FUNNEL_KINDS, rate } from '../../domain/funnel';
import { analyticsFilter, parseAnalyticsRange } from '../../domain/read-rules/analytics-range';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { jsonBody } from '../../http/json-body';
import { orNull } from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import type { ActionSegmentCounts } from '../../core/store/telemetry/actions';
import { iso } from '../../views/telemetry-views';

export const SEGMENTS_MIN = 2;
export const SEGMENTS_MAX = 4;
export const SEGMENT_NAME_MAX = 64;
/** Top actions listed per segment when no `event` is given. */
export const SEGMENT_TOP_ACTIONS = 5;
const FILTER_KEYS = ['service_name', 'release', 'environment'] as const;

const SegmentInput = z
  .object({
    name: z
      .string()
      .refine((s) => s.trim().length >= 1 && s.trim().length <= SEGMENT_NAME_MAX, {
        message: `name must be 1 to ${SEGMENT_NAME_MAX} characters after trimming`,
      })
      .openapi({
        description: `1 to ${SEGMENT_NAME_MAX} characters after trimming; unique ignoring case.`,
      }),
    service_name: filter('service name'),
    release: filter('release'),
    environment: filter('environment'),
  })
  .strict()
  .openapi('AnalyticsSegmentInput', {
    description: 'A named slice of the project; without filters, every action of the project.',
  });

const SegmentsRequest = z
  .object({
    ...analyticsRangeFields,
    analysis_unit: z.enum(ANALYSIS_UNITS).optional().openapi({ description: 'Default `session`.' }),
    event: EventMatcherInput.optional().openapi({
      description: 'The action measured; any action when omitted.',
    }),
    segments: z
      .array(SegmentInput)
      .min(SEGMENTS_MIN, `must have ${SEGMENTS_MIN} to ${SEGMENTS_MAX} segments`)
      .max(SEGMENTS_MAX, `must have ${SEGMENTS_MIN} to ${SEGMENTS_MAX} segments`)
      .openapi({
        description: `${SEGMENTS_MIN} to ${SEGMENTS_MAX} segments; the first is the baseline. Filters go inside each segment (a top-level \`service_name\`, \`release\` or \`environment\` is \`422\`).`,
      }),
  })
  .strict()
  .openapi('SegmentComparisonRequest');

const filtersOut = z.object({
  service_name: z.string().nullable(),
  release: z.string().nullable(),
  environment: z.string().nullable(),
});

const SegmentsResponse = z
  .object({
    schema_version: z.literal(1),
    query: z.object({
      project_id: z.string().openapi({ format: 'uuid' }),
      since: z.string().openapi({ format: 'date-time' }),
      until: z.string().openapi({ format: 'date-time' }),
      analysis_unit: z.enum(ANALYSIS_UNITS),
      event: orNull(EventMatcherOut),
      segments: z.array(z.object({ name: z.string() }).extend(filtersOut.shape)),
    }),
    baseline: z.string().openapi({ description: 'The first segment’s name.' }),
    project: z.object({
      events: count('Matching actions in the whole project in range (no segment filter).'),
      units: count('Distinct units among them: the denominator of `share_of_project_units`.'),
    }),
    segments: z.array(
      z.object({
        name: z.string(),
        filters: filtersOut.openapi({ description: 'Trimmed; `null` when absent.' }),
        events: count('Matching actions in the segment.'),
        units: count('Distinct units with a matching action in the segment.'),
        unit_identified_events: count('Matching actions carrying the unit id.'),
        events_per_unit: z.number().min(0).openapi({
          description: '`unit_identified_events` over `units`; 0 when `units` is 0.',
        }),
        share_of_project_units: fraction('`units` over `project.units`.'),
        top_actions: z
          .array(
            z.object({
              kind: z.enum(FUNNEL_KINDS),
              event_name: z.string(),
              events: z.number().int(),
              units: z.number().int(),
            }),
          )
          .openapi({
            description: `Without \`event\`: up to ${SEGMENT_TOP_ACTIONS} actions by name and kind, most events first, then name, then kind. With \`event\`: that action only.`,
          }),
        difference_from_baseline: z
          .object({
            units: count('`units` minus the baseline’s.'),
            units_rate_change: z.number().min(-1).openapi({
              description:
                'Relative change of `units` against the baseline’s: (units − baseline) / baseline, from −1 up (not capped at 1); 0 when the baseline has no units.',
            }),
            events_per_unit_change: z
              .number()
              .openapi({ description: '`events_per_unit` minus the baseline’s.' }),
          })
          .openapi({ description: 'All 0 for the baseline itself.' }),
      }),
    ),
    coverage: z.object({
      events: count('Every action of the project in range (no segment filter, any action).'),
      segment_events: z
        .array(z.object({ name: z.string(), events: z.number().int() }))
        .openapi({ description: 'Per segment, every action in its filters (any action).' }),
      overlapping: z.string().openapi({ description: 'How segments can overlap.' }),
      limitations: z.array(z.string()),
    }),
  })
  .openapi('SegmentComparison');

const postSegments = analyticsPostRoute({
  path: '/api/telemetry/analytics/segments/compare',
  summary: 'Compare an action across 2 to 4 segments of one project',
  description:
    'Each segment is a name with its own exact filters (filters go inside each segment); the first is the baseline. Per segment: matching actions, distinct units, their share of the project’s units, top actions and the difference from the baseline. Segments may overlap.',
  body: SegmentsRequest,
  response: SegmentsResponse,
  responseDescription: 'The segment comparison.',
});

/**
 * The spec puts filters inside each segment. A top-level filter would otherwise be refused as
 * an "unknown key" with no hint, so it is named here, before the schema runs.
 */
const filtersInsideSegments: MiddlewareHandler<AppEnv> = async (c, next) => {
  const body = c.get('jsonBody');
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const misplaced = FILTER_KEYS.filter((k) => k in body);
    if (misplaced.length > 0) {
      throw fail.validation(
        `${misplaced.join(', ')} must not be at the top level: filters go inside each segment`,
        'Move service_name, release and environment into the segments they apply to.',
      );
    }
  }
  await next();
};

const ZERO: ActionSegmentCounts = { all: 0, events: 0, unitIdentified: 0, units: 0, top: [] };

export function registerSegmentsRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi(
    {
      ...postSegments,
      middleware: [
        auth,
        strictQuery(postSegments.request.query),
        jsonBody(),
        filtersInsideSegments,
      ] as const,
    },
    async (c) => {
      const body = c.req.valid('json');
      const range = parseAnalyticsRange(body, deps.now());
      const analysisUnit = body.analysis_unit ?? 'session';
      const event = matcher(body.event);
      const segments = body.segments.map((s, i) => ({
        name: s.name.trim(),
        service_name: analyticsFilter(`segments.${i}.service_name`, s.service_name),
        release: analyticsFilter(`segments.${i}.release`, s.release),
        environment: analyticsFilter(`segments.${i}.environment`, s.environment),
      }));
      const seen = new Set<string>();
      for (const s of segments) {
        const key = s.name.toLowerCase();
        if (seen.has(key)) {
          throw fail.validation(
            `segments: duplicate name "${s.name}" (names must differ ignoring case)`,
            'Give each segment a different name.',
          );
        }
        seen.add(key);
      }
      const projectId = body.project_id.toLowerCase();
      const readable = await deps.store.projects.readable(c.get('principal').accountId, projectId);
      const base = {
        projectId,
        from: range.since,
        to: range.until,
        unit: UNIT_COLUMN[analysisUnit],
        match: event === null ? null : { kind: event.kind, name: event.eventName },
      };
      const query = (
        f: {
          service_name: string | null;
          release: string | null;
          environment: string | null;
        },
        topLimit: number,
      ) => ({
        ...base,
        serviceName: f.service_name,
        release: f.release,
        environment: f.environment,
        topLimit,
      });
      // The project's counts and each segment's in one call: a store may read them together
      // (ClickHouse: one pass per unit for all of them).
      const [project = ZERO, ...counts] = readable
        ? await deps.store.actions.segments([
            query({ service_name: null, release: null, environment: null }, 0),
            ...segments.map((s) => query(s, event === null ? SEGMENT_TOP_ACTIONS : 0)),
          ])
        : [ZERO, ...segments.map(() => ZERO)];
      const perUnit = (n: ActionSegmentCounts) => rate(n.unitIdentified, n.units);
      const baseline = counts[0] ?? ZERO;
      return c.json(
        {
          schema_version: 1 as const,
          query: {
            project_id: projectId,
            since: iso(range.since),
            until: iso(range.until),
            analysis_unit: analysisUnit,
            event: matcherEcho(event),
            segments,
          },
          baseline: segments[0]?.name ?? '',
          project: { events: project.events, units: project.units },
          segments: segments.map((s, i) => {
            const n = counts[i] ?? ZERO;
            return {
              name: s.name,
              filters: {
                service_name: s.service_name,
                release: s.release,
                environment: s.environment,
              },
              events: n.events,
              units: n.units,
              unit_identified_events: n.unitIdentified,
              events_per_unit: perUnit(n),
              share_of_project_units: rate(n.units, project.units),
              top_actions:
                event === null
                  ? n.top.map((t) => ({
                      kind: t.kind as (typeof FUNNEL_KINDS)[number],
                      event_name: t.name,
                      events: t.events,
                      units: t.units,
                    }))
                  : [
                      {
                        kind: event.kind,
                        event_name: event.eventName,
                        events: n.events,
                        units: n.units,
                      },
                    ],
              difference_from_baseline: {
                units: n.units - baseline.units,
                // A relative change, not a 0-to-1 rate; 0 (never null) against an empty baseline.
                units_rate_change:
                  baseline.units > 0 ? (n.units - baseline.units) / baseline.units : 0,
                events_per_unit_change: perUnit(n) - perUnit(baseline),
              },
            };
          }),
          coverage: {
            events: project.all,
            segment_events: segments.map((s, i) => ({ name: s.name, events: counts[i]?.all ?? 0 })),
            overlapping:
              'Segments may overlap: an action matching two segments’ filters counts in both, and a unit with actions in two segments is a unit of each, so segment counts need not add up to the project’s.',
            limitations: [
              'Actions without the unit id count in events but not in units; events_per_unit uses only actions with the unit id.',
              'share_of_project_units is a fraction from 0 to 1 and 0 when the project has no units; units_rate_change is a relative change from -1 up, 0 when the baseline has no units.',
              'A segment without filters holds every action of the project.',
              'Users are distinct_id values (an anonymous id counts as its own user); sessions are session_id values.',
            ],
          },
        },
        200,
      );
    },
  );
}
