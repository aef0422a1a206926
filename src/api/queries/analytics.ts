import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import type { components } from '../schema.gen';

export type Funnel = components['schemas']['Funnel'];
export type FunnelRequest = components['schemas']['FunnelRequest'];
export type FunnelStepResult = components['schemas']['FunnelStep'];
export type FunnelKind = FunnelRequest['steps'][number]['kind'];
export type AnalysisUnit = FunnelRequest['analysis_unit'];
export type AnalyticsOverview = components['schemas']['AnalyticsOverview'];
export type AnalyticsProperties = components['schemas']['AnalyticsProperties'];
export type Retention = components['schemas']['Retention'];
export type RetentionRequest = components['schemas']['RetentionRequest'];
export type Paths = components['schemas']['Paths'];
export type PathsRequest = components['schemas']['PathsRequest'];
export type Lifecycle = components['schemas']['Lifecycle'];
export type LifecycleRequest = components['schemas']['LifecycleRequest'];

/** The kinds of action a funnel step (or any analytics matcher) can match. */
export const ACTION_KINDS: readonly FunnelKind[] = ['page_view', 'screen_view', 'interaction'];
export const ACTION_KIND_LABELS: Record<FunnelKind, string> = {
  page_view: 'Page view',
  screen_view: 'Screen view',
  interaction: 'Interaction',
};

/**
 * The range and exact filters every analytics read shares. `since` stays as the URL holds it
 * (`7d` or RFC3339): the service resolves a relative one, so the key does not move with the clock.
 */
export type AnalyticsScope = {
  project_id: string;
  since: string;
  until?: string;
  service_name?: string;
  release?: string;
  environment?: string;
};

export type OverviewParams = AnalyticsScope & { top_limit?: number };

/** Query values are strings on the wire: a number is sent as its decimal text. */
const asText = (n: number | undefined) => (n === undefined ? undefined : String(n));

// Analytics answers are aggregates over a range; a minute old is fresh enough.
const ANALYTICS_STALE_MS = 60_000;

/**
 * Product analytics reads (spec "Product analytics"). The POST routes are reads too: they
 * change nothing, so they are queries keyed by their whole body and retried like any read.
 */
export const analyticsQueries = {
  overview: (params: OverviewParams) =>
    queryOptions({
      queryKey: ['analytics', 'overview', params] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/analytics/overview', {
            params: { query: { ...params, top_limit: asText(params.top_limit) } },
          }),
        ),
      staleTime: ANALYTICS_STALE_MS,
    }),
  properties: (params: AnalyticsScope & { limit?: number }) =>
    queryOptions({
      queryKey: ['analytics', 'properties', params] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/analytics/properties', {
            params: { query: { ...params, limit: asText(params.limit) } },
          }),
        ),
      staleTime: ANALYTICS_STALE_MS,
    }),
  funnel: (body: FunnelRequest) =>
    queryOptions({
      queryKey: ['analytics', 'funnel', body] as const,
      queryFn: () => call(api.POST('/api/telemetry/analytics/funnel', { body })),
      staleTime: ANALYTICS_STALE_MS,
    }),
  retention: (body: RetentionRequest) =>
    queryOptions({
      queryKey: ['analytics', 'retention', body] as const,
      queryFn: () => call(api.POST('/api/telemetry/analytics/retention', { body })),
      staleTime: ANALYTICS_STALE_MS,
    }),
  paths: (body: PathsRequest) =>
    queryOptions({
      queryKey: ['analytics', 'paths', body] as const,
      queryFn: () => call(api.POST('/api/telemetry/analytics/paths', { body })),
      staleTime: ANALYTICS_STALE_MS,
    }),
  /** Lifecycle: new, returning, resurrecting and dormant users per period. */
  lifecycle: (body: LifecycleRequest) =>
    queryOptions({
      queryKey: ['analytics', 'lifecycle', body] as const,
      queryFn: () => call(api.POST('/api/telemetry/analytics/lifecycle', { body })),
      staleTime: ANALYTICS_STALE_MS,
    }),
};
