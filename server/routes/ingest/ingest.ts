import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  NativeEnvelope,
  NativeIngestResult,
  SdkBatch,
  SdkIngestResult,
} from '../../ingest/batch-schemas';
import { acceptBatch } from '../../ingest/accept-batch';
import {
  nativeBatch,
  precheckNativeEnvelope,
  precheckSdkBatch,
  rejectNativeEnvelope,
  rejectSdkBatch,
  sdkBatch,
} from '../../ingest/parse-batch';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { requireIngestKey, requireIngestProject } from '../../http/ingest-auth';
import { jsonBody } from '../../http/json-body';
import { jsonTextIsWellFormed, wellFormedValue } from '../../ingest/well-formed';
import { errorResponses, jsonContent } from '../../http/openapi-shared';
import { rateLimited } from '../../http/rate-limit';
import type { MiddlewareHandler } from 'hono';
import type { AcceptResult } from '../../core/store/telemetry/ingest';

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const reviewAction = {
  code: 'review_ingested_telemetry' as const,
  target: 'telemetry_reads' as const,
};

const ingestErrors = errorResponses(400, 401, 413, 415, 422, 429);

/** The counts both routes answer with (the SDK route adds metrics and context_updated). */
const nativeCounts = (r: AcceptResult) => ({
  issues: r.counts.issues,
  logs: r.counts.logs,
  trace_spans: r.counts.trace_spans,
  actions: r.counts.actions,
  already_accepted: r.alreadyAccepted,
  next: 'Read the telemetry back with the list routes; the live feed shows new events.',
  next_action: reviewAction,
});

const nativeRoute = createRoute({
  method: 'post',
  path: '/api/telemetry/ingest',
  tags: ['ingestion'],
  summary: 'Ingest a native telemetry envelope',
  description:
    'Ingest bearer only. Issues, logs, trace spans and actions; each item has its own id (an id repeated within the envelope is `422 validation_failed`), and an id already accepted for the project is counted in `already_accepted` and not stored again. A rejected envelope stores nothing. Usage over the plan allowance gives `429 usage_limit_exceeded` (whole request); too many requests give `429 rate_limited`.',
  security: [{ ingestBearer: [] }],
  request: {
    body: { required: true, content: { 'application/json': { schema: NativeEnvelope } } },
  },
  responses: {
    200: jsonContent(NativeIngestResult, 'Counts of this batch only.'),
    ...ingestErrors,
  },
});

const sdkRoute = createRoute({
  method: 'post',
  path: '/v1/events',
  tags: ['ingestion'],
  summary: 'Ingest an SDK batch',
  description:
    "Ingest bearer only (a missing bearer or one that is not an ingest key is `401 unauthorized`). Events of all five kinds in `events`, each with `id` and `type`. Rejected batches give `422 validation_failed` with `error` 'SDK event ids must be unique within a batch', 'SDK event batch requires at least one event' or 'SDK event type is not supported by this ingest route'.",
  security: [{ ingestBearer: [] }],
  request: { body: { required: true, content: { 'application/json': { schema: SdkBatch } } } },
  responses: { 200: jsonContent(SdkIngestResult, 'Counts of this batch only.'), ...ingestErrors },
});

/**
 * Makes the parsed body well formed (lone surrogates become U+FFFD, before anything reads it,
 * the schema included), then runs its checks that come before the schema (parse-batch.ts).
 */
const precheck =
  (check: (raw: unknown) => void): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    // Walked only when its text could hold a lone surrogate: most bodies' scan is far cheaper.
    const parsed = c.get('jsonBody');
    const body = jsonTextIsWellFormed(c.get('jsonText')) ? parsed : wellFormedValue(parsed);
    c.set('jsonBody', body);
    c.req.json = <T>() => Promise.resolve(body as T);
    check(body);
    await next();
  };

/**
 * The two ingest routes. The body a route declares is the schema that checks it: the spec's
 * batch rejections run first (precheck), then the route's schema, whose failure answers with
 * parse-batch's texts (`invalid telemetry: <field>: …`), then the rules across items. A
 * rejected batch stores nothing.
 */
export function registerIngestRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
    const taken = await deps.ingestLimiter.take(c.get('ingestKey').keyId);
    if (!taken.ok) throw rateLimited(taken.retryAfterSeconds);
    await next();
  };
  // A group being written meanwhile may wait for this request's batch (journaled-ingest.ts).
  const announce: MiddlewareHandler<AppEnv> = async (c, next) => {
    const leave = deps.store.ingest.arriving?.(c.get('ingestKey').projectId);
    try {
      await next();
    } finally {
      leave?.();
    }
  };

  app.openapi(
    {
      ...nativeRoute,
      middleware: [
        requireIngestKey(deps, { route: 'native' }),
        rateLimit,
        announce,
        jsonBody(MAX_BODY_BYTES),
        precheck(precheckNativeEnvelope),
      ] as const,
    },
    async (c) => {
      const batch = nativeBatch(c.req.valid('json'), c.get('ingestKey').projectId);
      if (batch.declaredProjectId) requireIngestProject(c, batch.declaredProjectId);
      return c.json(nativeCounts(await acceptBatch(deps, batch)), 200);
    },
    (result) => {
      if (!result.success) rejectNativeEnvelope(result.error);
      return undefined;
    },
  );

  app.openapi(
    {
      ...sdkRoute,
      middleware: [
        requireIngestKey(deps, { route: 'sdk' }),
        rateLimit,
        announce,
        jsonBody(MAX_BODY_BYTES),
        precheck(precheckSdkBatch),
      ] as const,
    },
    async (c) => {
      const batch = sdkBatch(c.req.valid('json'), c.get('ingestKey').projectId);
      if (batch.declaredProjectId) requireIngestProject(c, batch.declaredProjectId);
      const r = await acceptBatch(deps, batch);
      return c.json(
        { ...nativeCounts(r), metrics: r.counts.metrics, context_updated: r.contextUpdated },
        200,
      );
    },
    (result) => {
      if (!result.success) rejectSdkBatch(result.error);
      return undefined;
    },
  );
}
