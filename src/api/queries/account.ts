import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import type { components } from '../schema.gen';

export type Account = components['schemas']['Account'];

export const accountQueries = {
  all: () => ['account'] as const,
  me: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'me'] as const,
      queryFn: () => call(api.GET('/api/account')),
    }),
};

/** Organizations where the account may create projects and ingest keys. */
export function managedOrganizations(account: Account): Account['organizations'] {
  return account.organizations.filter((o) => o.role === 'owner' || o.role === 'admin');
}

export type UsageInterval = components['schemas']['UsageHistory']['interval'];
export type StreamKind = components['schemas']['StreamUsage']['kind'];
export type SubscriptionReadiness = components['schemas']['SubscriptionReadiness'];

const fetchUsage = () =>
  call(api.GET('/api/account/usage', { params: { query: { response_version: '2' } } }));
const fetchHistory = (interval: UsageInterval) =>
  call(api.GET('/api/account/usage/history', { params: { query: { interval } } }));

// The types the client gives the answers (openapi-fetch's view of the schema).
export type AccountUsage = Awaited<ReturnType<typeof fetchUsage>>;
export type UsageHistory = Awaited<ReturnType<typeof fetchHistory>>;
export type UsageHistoryBucket = UsageHistory['buckets'][number];

export const USAGE_INTERVALS: readonly UsageInterval[] = ['daily', 'weekly', 'monthly', 'yearly'];

// Usage moves while telemetry arrives; the account pages re-read it every minute.
const USAGE_REFRESH_MS = 60_000;

/** The account area's reads (spec "Account API"): snapshots, re-read after an account change. */
export const usageQueries = {
  all: () => ['usage'] as const,
  /** Version 2: the same usage plus the SDK-dropped events, shown apart from it. */
  current: () =>
    queryOptions({
      queryKey: [...usageQueries.all(), 'current'] as const,
      queryFn: fetchUsage,
      refetchInterval: USAGE_REFRESH_MS,
    }),
  history: (interval: UsageInterval) =>
    queryOptions({
      queryKey: [...usageQueries.all(), 'history', interval] as const,
      queryFn: () => fetchHistory(interval),
      refetchInterval: USAGE_REFRESH_MS,
    }),
  subscription: () =>
    queryOptions({
      queryKey: [...usageQueries.all(), 'subscription'] as const,
      queryFn: () => call(api.GET('/api/account/subscription')),
    }),
};
