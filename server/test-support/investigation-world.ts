import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { call, signIn, type ApiResponse } from './api-client';
import { issueIdOf } from './issues';
import type { RunningService } from './start-service';
import {
  NATIVE,
  SDK,
  actionItem,
  at,
  createTenant,
  ingest,
  issueItem,
  logItem,
  metricItem,
  nativeBody,
  sdkBody,
  sdkEvent,
  spanItem,
  type Tenant,
} from './telemetry';

/**
 * One tenant's telemetry for the investigation contract tests, deliberately oversized where
 * bundles must cut: a trace with 150 error spans and 1,200 logs, an occurrence with a 500-frame
 * stack, 200 breadcrumbs and 10,000-character texts, a session of 30 actions. A second tenant
 * owns the same kinds of ids, so "unreadable" can be tested against "unknown".
 */

export const BIG_TRACE = 'b'.repeat(32);
export const SMALL_TRACE = 'c'.repeat(32);
export const OTHER_TRACE = 'd'.repeat(32);
export const ROOT_SPAN = '1'.repeat(16);
export const CHILD_SPAN = '2'.repeat(16);
export const LEAF_SPAN = '3'.repeat(16);
export const HUGE = 'x'.repeat(10_000);
export const FP = 'investigation-fp';
export const FP_PLAIN = 'investigation-plain';
export const RELEASE = 'shop@1.0.0';
export const BIG_LOGS = 1_200;

export type InvestigationWorld = {
  tenant: Tenant;
  token: string;
  other: Tenant;
  otherToken: string;
  issueId: string;
  plainIssueId: string;
  otherIssueId: string;
  occurrences: { first: string; traced: string; latest: string; other: string };
  logIds: { huge: string; plain: string; other: string };
  actionIds: { middle: string; lonely: string; other: string };
};

const get = (svc: RunningService<boolean>, token: string, path: string): Promise<ApiResponse> =>
  call(svc.baseUrl, 'GET', path, { token });
export { get as getAs };

async function ok(res: Promise<ApiResponse>) {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return r;
}

async function owner(svc: RunningService<boolean>) {
  const tenant = await createTenant(svc, { tier: 'pro', password: 'pw-investigation' });
  const { accessToken } = await signIn(svc.baseUrl, tenant.email, tenant.password);
  return { tenant, token: accessToken };
}

export async function seedInvestigationWorld(
  svc: RunningService<boolean>,
): Promise<InvestigationWorld> {
  const { tenant, token } = await owner(svc);
  const { tenant: other, token: otherToken } = await owner(svc);
  const key = tenant.ingestKey;

  // The big trace: root, a failing child with a 10k status message, a leaf, and 150 error spans.
  const spans = [
    spanItem({
      trace_id: BIG_TRACE,
      span_id: ROOT_SPAN,
      name: 'POST /checkout',
      service_name: 'checkout-api',
      started_at: at(0),
      duration_ms: 2_000,
    }),
    spanItem({
      trace_id: BIG_TRACE,
      span_id: CHILD_SPAN,
      parent_span_id: ROOT_SPAN,
      name: 'charge card ' + HUGE.slice(0, 900),
      service_name: 'payments',
      started_at: at(100),
      duration_ms: 500,
      status: 'error',
      status_message: 'y'.repeat(8_000),
      attributes: Object.fromEntries(
        Array.from({ length: 120 }, (_, i) => [`k${i}`, HUGE.slice(0, 900)]),
      ),
      events: Array.from({ length: 60 }, (_, i) => ({
        name: `retry ${i}`,
        timestamp: at(101 + i),
      })),
    }),
    spanItem({
      trace_id: BIG_TRACE,
      span_id: LEAF_SPAN,
      parent_span_id: CHILD_SPAN,
      name: 'db.query',
      service_name: 'payments',
      started_at: at(200),
      duration_ms: 50,
    }),
    ...Array.from({ length: 150 }, (_, i) =>
      spanItem({
        trace_id: BIG_TRACE,
        span_id: (1000 + i).toString(16).padStart(16, 'e'),
        parent_span_id: ROOT_SPAN,
        name: `failing ${i}`,
        service_name: 'inventory',
        started_at: at(300 + i),
        duration_ms: 1,
        status: 'error',
      }),
    ),
  ];
  await ok(ingest(svc, NATIVE, key, nativeBody({ trace_spans: spans })));
  await ok(
    ingest(
      svc,
      NATIVE,
      key,
      nativeBody({
        trace_spans: [spanItem({ trace_id: SMALL_TRACE, span_id: ROOT_SPAN, started_at: at(0) })],
      }),
    ),
  );

  // 1,200 logs on the big trace, the first with a 10k message; one plain log without a trace.
  const hugeLog = logItem({
    trace_id: BIG_TRACE,
    span_id: CHILD_SPAN,
    message: HUGE,
    occurred_at: at(150),
    attributes: { nested: { deeper: { deepest: { bottom: { gone: 1 } } } }, long: HUGE },
  });
  const plainLog = logItem({ message: 'no trace here', occurred_at: at(5_000) });
  const logs = [
    hugeLog,
    plainLog,
    ...Array.from({ length: BIG_LOGS - 1 }, (_, i) =>
      logItem({ trace_id: BIG_TRACE, message: `step ${i}`, occurred_at: at(1_000 + i * 10) }),
    ),
  ];
  for (let i = 0; i < logs.length; i += 500)
    await ok(ingest(svc, NATIVE, key, nativeBody({ logs: logs.slice(i, i + 500) })));

  // One issue with three occurrences: first (stack, no trace), traced (huge), latest (bare).
  const first = issueItem({ fingerprint: FP, occurred_at: at(-60_000) });
  const traced = issueItem({
    fingerprint: FP,
    occurred_at: at(120),
    trace_id: BIG_TRACE,
    span_id: CHILD_SPAN,
    message: HUGE,
    stack_trace:
      'TypeError: boom ' +
      HUGE +
      '\n' +
      Array.from(
        { length: 500 },
        (_, i) => `    at f${i} (src/f${i}.ts:${i}:1) ${'z'.repeat(i === 0 ? 2_000 : 1)}`,
      ).join('\n'),
    breadcrumbs: Array.from({ length: 200 }, (_, i) => ({
      timestamp: at(i),
      category: 'http',
      message: `crumb ${i} ${'m'.repeat(8_000)}`,
    })),
    attributes: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`a${i}`, i])),
  });
  const latest = issueItem({ fingerprint: FP, occurred_at: at(10_000), stack_trace: null });
  const plain = issueItem({ fingerprint: FP_PLAIN, occurred_at: at(20_000), stack_trace: null });
  await ok(ingest(svc, NATIVE, key, nativeBody({ issues: [first, traced, latest, plain] })));
  const otherOcc = issueItem({ fingerprint: FP, trace_id: OTHER_TRACE });
  await ok(ingest(svc, NATIVE, other.ingestKey, nativeBody({ issues: [otherOcc] })));
  const otherLog = logItem({ trace_id: OTHER_TRACE });
  const otherAction = actionItem();
  await ok(
    ingest(
      svc,
      NATIVE,
      other.ingestKey,
      nativeBody({
        logs: [otherLog],
        actions: [otherAction],
        trace_spans: [spanItem({ trace_id: OTHER_TRACE, span_id: ROOT_SPAN })],
      }),
    ),
  );

  // A session of 31 actions a minute apart; the middle one carries the big trace.
  const session = Array.from({ length: 31 }, (_, i) =>
    actionItem({
      session_id: 'session-inv',
      name: i === 15 ? 'Place order' : `step ${i}`,
      occurred_at: at(i * 60_000),
      ...(i === 15 ? { trace_id: BIG_TRACE, properties: { note: HUGE } } : {}),
    }),
  );
  const lonely = actionItem({ session_id: null, name: 'Push opened' });
  await ok(ingest(svc, NATIVE, key, nativeBody({ actions: [...session, lonely] })));

  // Metric samples every 5 minutes for two hours.
  const samples = Array.from({ length: 24 }, (_, i) =>
    sdkEvent(
      'metric',
      metricItem({ name: 'http.server.duration', value: 100 + i, occurred_at: at(i * 300_000) }),
    ),
  );
  await ok(ingest(svc, SDK, key, sdkBody(samples)));

  const issueId = await issueIdOf(svc, token, tenant.projectId, FP);
  const plainIssueId = await issueIdOf(svc, token, tenant.projectId, FP_PLAIN);
  const otherIssueId = await issueIdOf(svc, otherToken, other.projectId, FP);
  return {
    tenant,
    token,
    other,
    otherToken,
    issueId,
    plainIssueId,
    otherIssueId,
    occurrences: { first: first.id, traced: traced.id, latest: latest.id, other: otherOcc.id },
    logIds: { huge: hugeLog.id, plain: plainLog.id, other: otherLog.id },
    actionIds: { middle: session[15]?.id ?? '', lonely: lonely.id, other: otherAction.id },
  };
}

/** Records a deployment through the real PUT route. */
export async function putDeployment(
  svc: RunningService<boolean>,
  token: string,
  projectId: string,
  o: Record<string, unknown> & { started_at: string; finished_at: string },
): Promise<string> {
  const id = `dep-${randomUUID().slice(0, 8)}`;
  const res = await call(svc.baseUrl, 'PUT', `/api/telemetry/deployments/${id}`, {
    token,
    json: {
      project_id: projectId,
      release: RELEASE,
      environment: 'production',
      service_name: 'checkout-api',
      status: 'succeeded',
      ...o,
    },
  });
  expect(res.status, res.text).toBe(200);
  return id;
}

/** Every string anywhere in a JSON value, for "nothing longer than the limit" checks. */
export function longestString(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((m: number, v) => Math.max(m, longestString(v)), 0);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).reduce((m, [k, v]) => Math.max(m, k.length, longestString(v)), 0);
  return 0;
}
