import { infiniteQueryOptions, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import { retryDelayMs, shouldRetry } from '../errors';
import { NOTIFICATIONS_POLL_MS } from './issues';

import type { components } from '../schema.gen';

/** Alerts (docs/alerts.md): rules, their preview, incidents, webhooks and the alert inbox. */
export type AlertRule = components['schemas']['AlertRule'];
export type AlertKind = AlertRule['kind'];
export type AlertNotify = components['schemas']['AlertNotify'];
export type AlertIssueCondition = components['schemas']['AlertIssueCondition'];
export type AlertOp = components['schemas']['AlertLogCondition']['op'];
export type IssueEvent = AlertIssueCondition['event'];
export type TraceMeasure = components['schemas']['AlertTraceCondition']['measure'];
/** A condition as the editor sends it (the service checks it by kind: `422` names the field). */
export type AlertCondition = components['schemas']['AlertRuleCreate']['condition'];
export type AlertRuleInput = components['schemas']['AlertRuleCreate'];
export type AlertRuleChange = components['schemas']['AlertRulePatch'];
export type PreviewInput = Pick<
  AlertRuleInput,
  'project_id' | 'kind' | 'condition' | 'resolve_threshold'
>;
export type AlertIncident = components['schemas']['AlertIncident'];
export type AlertNotification = components['schemas']['AlertNotification'];
export type Webhook = components['schemas']['AlertWebhook'];
export type CreatedWebhook = components['schemas']['AlertWebhookCreated'];
export type WebhookDelivery = components['schemas']['AlertDelivery'];

/** The preview of a draft rule over the last 24 hours (`POST /api/alerts/preview`). */
export type AlertPreview = components['schemas']['AlertPreview'];

export type IncidentFilters = {
  project_id: string;
  rule_id?: string;
  state?: 'firing' | 'resolved';
};

/** Rules and incidents per page (query values are text). */
export const ALERT_PAGE_SIZE = '50';

/** Creates carry an `Idempotency-Key`, so a retried transient failure cannot create two. */
const idempotentRetry = {
  retry: (failures: number, error: unknown) => shouldRetry(error, failures + 1, 'idempotent-write'),
  retryDelay: (attempt: number, error: unknown) => retryDelayMs(error, attempt),
};

export const alertQueries = {
  all: () => ['alerts'] as const,
  ruleLists: () => [...alertQueries.all(), 'rules'] as const,
  /** The rules of one project, newest first; older pages follow `next_cursor` exactly. */
  rules: (projectId: string) =>
    infiniteQueryOptions({
      queryKey: [...alertQueries.ruleLists(), projectId] as const,
      queryFn: ({ pageParam }) =>
        call(
          api.GET('/api/alerts/rules', {
            params: {
              query: {
                project_id: projectId,
                limit: ALERT_PAGE_SIZE,
                ...(pageParam ? { cursor: pageParam } : {}),
              },
            },
          }),
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor ?? null,
    }),
  rule: (ruleId: string) =>
    queryOptions({
      queryKey: [...alertQueries.all(), 'rule', ruleId] as const,
      queryFn: () =>
        call(api.GET('/api/alerts/rules/{rule_id}', { params: { path: { rule_id: ruleId } } })),
    }),
  /** The snooze in force on an issue's alerts (`until` null: not snoozed). */
  issueSnooze: (issueId: string) =>
    queryOptions({
      queryKey: [...alertQueries.all(), 'issue-snooze', issueId] as const,
      queryFn: () =>
        call(
          api.GET('/api/alerts/issue-snoozes/{issue_id}', {
            params: { path: { issue_id: issueId } },
          }),
        ),
    }),
  /** The rule's query over the last 24 hours; `input` is the key, so each draft is its own read. */
  preview: (input: PreviewInput) =>
    queryOptions({
      queryKey: [...alertQueries.all(), 'preview', input] as const,
      queryFn: () => call(api.POST('/api/alerts/preview', { body: input })),
      staleTime: 60_000,
      // A refused draft (422) is shown at once, beside the field; retrying it cannot help.
      retry: (failures, error) => shouldRetry(error, failures + 1, 'read'),
    }),
  incidentLists: () => [...alertQueries.all(), 'incidents'] as const,
  incidents: (filters: IncidentFilters) =>
    infiniteQueryOptions({
      queryKey: [...alertQueries.incidentLists(), filters] as const,
      queryFn: ({ pageParam }) =>
        call(
          api.GET('/api/alerts/incidents', {
            params: {
              query: {
                ...filters,
                limit: ALERT_PAGE_SIZE,
                ...(pageParam ? { cursor: pageParam } : {}),
              },
            },
          }),
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor ?? null,
      refetchInterval: NOTIFICATIONS_POLL_MS,
    }),
  webhookLists: () => [...alertQueries.all(), 'webhooks'] as const,
  webhooks: (organizationId: string) =>
    queryOptions({
      queryKey: [...alertQueries.webhookLists(), organizationId] as const,
      queryFn: () =>
        call(
          api.GET('/api/alerts/webhooks', {
            params: { query: { organization_id: organizationId } },
          }),
        ).then((d) => d.webhooks),
    }),
  deliveries: (webhookId: string) =>
    infiniteQueryOptions({
      queryKey: [...alertQueries.all(), 'deliveries', webhookId] as const,
      queryFn: ({ pageParam }) =>
        call(
          api.GET('/api/alerts/webhooks/{webhook_id}/deliveries', {
            params: {
              path: { webhook_id: webhookId },
              query: { limit: ALERT_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
            },
          }),
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor ?? null,
      // Attempts happen in the service's worker; a pending delivery changes only by reading again.
      refetchInterval: 5_000,
    }),
  /** The alert inbox, newest first (the bell shows it beside issue assignments). */
  notifications: () =>
    infiniteQueryOptions({
      queryKey: [...alertQueries.all(), 'notifications'] as const,
      queryFn: ({ pageParam }) =>
        call(
          api.GET('/api/alerts/notifications', {
            params: { query: pageParam ? { cursor: pageParam } : {} },
          }),
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor ?? null,
      staleTime: 0,
      refetchOnWindowFocus: 'always',
      refetchInterval: NOTIFICATIONS_POLL_MS,
    }),
};

export const alertMutations = {
  createRule: () =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'create-rule'] as const,
      mutationFn: (input: { body: AlertRuleInput; idempotencyKey: string }) =>
        call(
          api.POST('/api/alerts/rules', {
            params: { header: { 'idempotency-key': input.idempotencyKey } },
            body: input.body,
          }),
        ),
      ...idempotentRetry,
      onSuccess: (_data, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: alertQueries.ruleLists() }),
    }),
  changeRule: (ruleId: string) =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'change-rule', ruleId] as const,
      mutationFn: (change: AlertRuleChange) =>
        call(
          api.PATCH('/api/alerts/rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            body: change,
          }),
        ),
      onSuccess: (rule, _change, _result, { client }) => {
        client.setQueryData(alertQueries.rule(ruleId).queryKey, rule);
        return client.invalidateQueries({ queryKey: alertQueries.ruleLists() });
      },
    }),
  deleteRule: (ruleId: string) =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'delete-rule', ruleId] as const,
      mutationFn: () =>
        call(api.DELETE('/api/alerts/rules/{rule_id}', { params: { path: { rule_id: ruleId } } })),
      onSuccess: (_data, _input, _result, { client }) => {
        client.removeQueries({ queryKey: alertQueries.rule(ruleId).queryKey });
        return client.invalidateQueries({ queryKey: alertQueries.ruleLists() });
      },
    }),
  createWebhook: () =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'create-webhook'] as const,
      mutationFn: (input: {
        body: { organization_id: string; name: string; url: string };
        idempotencyKey: string;
      }) =>
        call(
          api.POST('/api/alerts/webhooks', {
            params: { header: { 'idempotency-key': input.idempotencyKey } },
            body: input.body,
          }),
        ),
      ...idempotentRetry,
      onSuccess: (_data, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: alertQueries.webhookLists() }),
    }),
  deleteWebhook: () =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'delete-webhook'] as const,
      mutationFn: (webhookId: string) =>
        call(
          api.DELETE('/api/alerts/webhooks/{webhook_id}', {
            params: { path: { webhook_id: webhookId } },
          }),
        ),
      onSuccess: (_data, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: alertQueries.webhookLists() }),
    }),
  testWebhook: () =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'test-webhook'] as const,
      mutationFn: (webhookId: string) =>
        call(
          api.POST('/api/alerts/webhooks/{webhook_id}/test', {
            params: { path: { webhook_id: webhookId } },
          }),
        ),
      onSuccess: (_data, webhookId, _result, { client }) =>
        client.invalidateQueries({ queryKey: alertQueries.deliveries(webhookId).queryKey }),
    }),
  markNotificationsRead: () =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'notifications', 'read'] as const,
      mutationFn: (readAt: string) =>
        call(api.POST('/api/alerts/notifications/read', { body: { read_at: readAt } })),
      onSuccess: (_data, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: alertQueries.notifications().queryKey }),
    }),
  /** No issue alert fires for the issue until `until` (RFC3339). */
  snoozeIssue: (issueId: string) =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'snooze', issueId] as const,
      mutationFn: (until: string) =>
        call(
          api.PUT('/api/alerts/issue-snoozes/{issue_id}', {
            params: { path: { issue_id: issueId } },
            body: { until },
          }),
        ),
      // The service's answer is the snooze in force.
      onSuccess: (snooze, _input, _result, { client }) =>
        client.setQueryData(alertQueries.issueSnooze(issueId).queryKey, snooze),
    }),
  unsnoozeIssue: (issueId: string) =>
    mutationOptions({
      mutationKey: [...alertQueries.all(), 'unsnooze', issueId] as const,
      mutationFn: () =>
        call(
          api.DELETE('/api/alerts/issue-snoozes/{issue_id}', {
            params: { path: { issue_id: issueId } },
          }),
        ),
      onSettled: (_data, _error, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: alertQueries.issueSnooze(issueId).queryKey }),
    }),
};
