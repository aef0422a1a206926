import type { SpanItemInput } from '../ingest/item-schemas';
import type { Rng } from './random';
import {
  SERVICES,
  type Environment,
  type ProjectKey,
  type Sdk,
  type ServiceName,
} from './world-model';

/**
 * A trace described as a tree of work, then laid out in time. Durations are computed bottom
 * up (a span lasts its own work plus its children's), start times top down, all in integer
 * microseconds, so every child starts and ends within its parent by construction.
 */
export type SpanKind = 'server' | 'client' | 'internal' | 'producer' | 'consumer';

export type SpanNode = {
  service: ServiceName;
  name: string;
  operation?: string;
  kind?: SpanKind;
  /** The span's own work in ms; a third of it before its children, the rest after. */
  selfMs: number;
  children?: SpanNode[];
  /** Children run concurrently instead of one after another. */
  parallel?: boolean;
  attributes?: Record<string, unknown>;
  /** The SDK does not report span status (the span's status reads as null). */
  noStatus?: boolean;
  /** Span events at a fraction of the span's duration (e.g. paint timings of a page load). */
  marks?: { name: string; at: number; attributes?: Record<string, unknown> }[];
  /** A place where a failure can be injected, e.g. `payments.server`. */
  tag?: string;
};

export type Failure = {
  /** The first node (depth first) with this tag fails. */
  tag: string;
  exception: { type: string; message: string; stack: string | null };
  statusMessage: string;
  /** What HTTP spans on the way up answer; default 500; 0 when the connection failed. */
  httpStatus?: number;
  /** The failing span lasts at least this long (a timeout). */
  minDurationMs?: number;
};

export type EmittedSpan = {
  project: ProjectKey;
  sdk: Sdk;
  item: SpanItemInput;
  tag?: string;
  startMs: number;
  endMs: number;
};

export type EmittedTrace = {
  traceId: string;
  environment: Environment;
  spans: EmittedSpan[];
  root: EmittedSpan;
  /** The span that failed, when a failure was injected and its tag found. */
  failed: EmittedSpan | null;
  startMs: number;
  endMs: number;
};

type Laid = {
  node: SpanNode;
  durUs: number;
  preUs: number;
  children: Laid[];
  failing: boolean;
  onErrorPath: boolean;
};

const GAP_US = 40;

function lay(node: SpanNode, failure: Failure | undefined, state: { found: boolean }): Laid {
  const failing = !!failure && !state.found && node.tag === failure.tag;
  if (failing) state.found = true;
  const children: Laid[] = [];
  let childUs = 0;
  for (const child of node.children ?? []) {
    const laid = lay(child, failure, state);
    children.push(laid);
    childUs = node.parallel
      ? Math.max(childUs, laid.durUs)
      : childUs + laid.durUs + (children.length > 1 ? GAP_US : 0);
    // A request stops at its first failure: later sequential steps never run.
    if (laid.onErrorPath && !node.parallel) break;
  }
  const selfUs = Math.max(20, Math.round(node.selfMs * 1000));
  let durUs = selfUs + childUs;
  if (failing && failure?.minDurationMs !== undefined) {
    durUs = Math.max(durUs, Math.round(failure.minDurationMs * 1000));
  }
  return {
    node,
    durUs,
    preUs: Math.floor(selfUs / 3),
    children,
    failing,
    onErrorPath: failing || children.some((c) => c.onErrorPath),
  };
}

/** Duration in ms of a tree once laid out, without emitting it (to place it in time). */
export function treeDurationMs(root: SpanNode, failure?: Failure): number {
  return lay(root, failure, { found: false }).durUs / 1000;
}

export type EmitOptions = {
  startMs: number;
  environment: Environment;
  releaseOf: (service: ServiceName) => string;
  failure?: Failure;
};

const isHttp = (op: string | undefined) => op === 'http.server' || op === 'http.client';

export function emitTrace(rng: Rng, root: SpanNode, opts: EmitOptions): EmittedTrace {
  const traceId = rng.hex(32);
  const laidRoot = lay(root, opts.failure, { found: false });
  const spans: EmittedSpan[] = [];
  let failed: EmittedSpan | null = null;
  const httpStatus = opts.failure?.httpStatus ?? 500;

  const visit = (
    laid: Laid,
    startUs: number,
    parent: { spanId: string; project: ProjectKey; sdk: Sdk } | null,
  ) => {
    const { node } = laid;
    const def = SERVICES[node.service];
    // Databases and caches are reported by their caller's SDK, in the caller's project.
    const project = def.platform === 'datastore' && parent ? parent.project : def.project;
    const sdk = def.platform === 'datastore' && parent ? parent.sdk : def.sdk;
    const spanId = rng.hex(16);
    const startMs = Math.floor(startUs / 1000);
    const endUs = startUs + laid.durUs;
    const attributes: Record<string, unknown> = { ...node.attributes };
    if (laid.onErrorPath && isHttp(node.operation) && 'http.status_code' in attributes) {
      // Status 0: the connection failed, so there is no HTTP status to record.
      if (httpStatus === 0) delete attributes['http.status_code'];
      else attributes['http.status_code'] = httpStatus;
    }
    const item: SpanItemInput = {
      id: rng.uuid(),
      trace_id: traceId,
      span_id: spanId,
      parent_span_id: parent?.spanId ?? null,
      name: node.name,
      ...(node.operation !== undefined ? { operation: node.operation } : {}),
      ...(node.kind !== undefined ? { kind: node.kind } : {}),
      started_at: new Date(startMs).toISOString(),
      duration_ms: Math.round(endUs - startMs * 1000) / 1000,
      attributes,
      release: opts.releaseOf(node.service),
      environment: opts.environment,
      service_name: node.service,
    };
    const events: NonNullable<SpanItemInput['events']> = (node.marks ?? []).map((m) => ({
      name: m.name,
      timestamp: new Date(Math.floor((startUs + laid.durUs * m.at) / 1000)).toISOString(),
      ...(m.attributes ? { attributes: m.attributes } : {}),
    }));
    if (laid.failing && opts.failure) {
      const { exception, statusMessage } = opts.failure;
      item.status = 'error';
      item.status_message = statusMessage;
      events.push({
        name: 'exception',
        timestamp: new Date(Math.max(startMs, Math.floor(endUs / 1000) - 1)).toISOString(),
        attributes: {
          'exception.type': exception.type,
          'exception.message': exception.message,
          ...(exception.stack ? { 'exception.stacktrace': exception.stack } : {}),
        },
      });
    } else if (laid.onErrorPath && !node.noStatus) {
      item.status = 'error';
      item.status_message =
        isHttp(node.operation) && httpStatus > 0
          ? `HTTP ${httpStatus}`
          : (opts.failure?.exception.type ?? 'error');
    } else if (!node.noStatus) {
      item.status = 'ok';
    }
    if (events.length > 0) item.events = events;
    const emitted: EmittedSpan = {
      project,
      sdk,
      item,
      ...(node.tag !== undefined ? { tag: node.tag } : {}),
      startMs: startUs / 1000,
      endMs: endUs / 1000,
    };
    spans.push(emitted);
    if (laid.failing) failed = emitted;
    let cursor = startUs + laid.preUs;
    for (const child of laid.children) {
      visit(child, cursor, { spanId, project, sdk });
      if (!node.parallel) cursor += child.durUs + GAP_US;
    }
  };

  visit(laidRoot, Math.round(opts.startMs * 1000), null);
  const first = spans[0];
  if (!first) throw new Error('a trace needs a root span');
  return {
    traceId,
    environment: opts.environment,
    spans,
    root: first,
    failed,
    startMs: first.startMs,
    endMs: first.endMs,
  };
}
