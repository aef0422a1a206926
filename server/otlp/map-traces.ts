import type { SpanKind } from '../domain/span-kind';
import type { OtlpAdmission } from './otlp-admission';
import type { OtlpKeyValue, OtlpSpan, OtlpTracesRequest } from './otlp-messages';
import { resourceContext, type ResourceContext } from './otlp-resource';
import { exceptionIssue } from './exception-issue';
import {
  attributes,
  IdMinter,
  idHex,
  isoOf,
  msOf,
  nanosOf,
  RecordRejection,
  stringAttribute,
} from './otlp-values';

const KINDS: Record<number, SpanKind> = {
  1: 'internal',
  2: 'server',
  3: 'client',
  4: 'producer',
  5: 'consumer',
};

/**
 * Lookout's `operation` (http.server, db.query, …) from OTel's semantic conventions: the
 * attributes say what a span did, the kind says which side it was on. Null when they say
 * nothing Lookout names.
 */
function operationOf(list: OtlpKeyValue[], kind: SpanKind | null): string | null {
  const has = (...keys: string[]) => list.some((kv) => keys.includes(kv.key));
  const side = kind === 'client' || kind === 'producer' ? 'client' : 'server';
  if (has('http.request.method', 'http.method')) return `http.${side}`;
  if (has('db.system.name', 'db.system')) return 'db.query';
  if (has('rpc.system')) return `rpc.${side}`;
  const messaging = stringAttribute(list, 'messaging.system');
  if (messaging) return kind === 'consumer' ? 'messaging.process' : 'messaging.publish';
  return null;
}

/** Spans to trace spans; each `exception` event also becomes an issue occurrence. */
export function mapTraces(request: OtlpTracesRequest, admission: OtlpAdmission): void {
  const ids = new IdMinter();
  const seen = new Set<string>();
  request.resourceSpans.forEach((rs, r) => {
    let ctx: ResourceContext | null = null;
    rs.scopeSpans.forEach((ss, s) =>
      ss.spans.forEach((span, n) => {
        const at = `resourceSpans[${r}].scopeSpans[${s}].spans[${n}]`;
        admission.guard(at, () => {
          ctx ??= resourceContext(rs.resource);
          mapSpan(span, ctx, at, { ids, seen, admission });
        });
      }),
    );
  });
}

function mapSpan(
  span: OtlpSpan,
  ctx: ResourceContext,
  at: string,
  m: { ids: IdMinter; seen: Set<string>; admission: OtlpAdmission },
): void {
  const traceId = idHex(span.traceId, 16, 'traceId');
  const spanId = idHex(span.spanId, 8, 'spanId');
  if (!traceId || !spanId) throw new RecordRejection('a span needs a traceId and a spanId');
  if (m.seen.has(`${traceId}/${spanId}`))
    throw new RecordRejection(`span ${spanId} of trace ${traceId} appears twice in the request`);
  m.seen.add(`${traceId}/${spanId}`);
  const started = msOf(span.startTimeUnixNano);
  const ended = msOf(span.endTimeUnixNano);
  if (started === null) throw new RecordRejection('startTimeUnixNano is missing');
  if (ended === null) throw new RecordRejection('endTimeUnixNano is missing');
  // From the nanoseconds themselves: epoch milliseconds as doubles keep only ~0.2 µs, so a
  // difference of two of them is off by that much (a 12.000512 ms span read back 12.000488).
  const durationNs = nanosOf(span.endTimeUnixNano) - nanosOf(span.startTimeUnixNano);
  if (durationNs < 0n) throw new RecordRejection('endTimeUnixNano is before startTimeUnixNano');
  const kind = KINDS[span.kind] ?? null;
  const status = span.status?.code === 1 ? 'ok' : span.status?.code === 2 ? 'error' : null;
  const stored = m.admission.span(
    {
      id: m.ids.mint('span', traceId, spanId),
      trace_id: traceId,
      span_id: spanId,
      parent_span_id: idHex(span.parentSpanId, 8, 'parentSpanId'),
      name: span.name,
      operation: operationOf(span.attributes, kind) ?? undefined,
      kind: kind ?? undefined,
      started_at: isoOf(started),
      duration_ms: Number(durationNs) / 1e6,
      status,
      status_message: span.status?.message || undefined,
      attributes: attributes(span.attributes),
      events: span.events.map((e) => ({
        name: e.name,
        timestamp: isoOf(msOf(e.timeUnixNano) ?? started),
        attributes: attributes(e.attributes),
      })),
    },
    ctx,
    at,
  );
  if (!stored) return;
  span.events.forEach((e, i) => {
    if (e.name !== 'exception') return;
    const issue = exceptionIssue(e.attributes, {
      id: m.ids.mint('exception', traceId, spanId, String(i)),
      occurredAt: msOf(e.timeUnixNano) ?? ended,
      traceId,
      spanId,
    });
    if (issue) m.admission.issue(issue, ctx, `${at}.events[${i}]`);
  });
}
