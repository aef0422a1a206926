import { deriveFingerprint } from '../domain/fingerprint';
import { normalizeSeverity, type Severity } from '../domain/severity';
import { fail } from '../core/api-error';
import type {
  ActionItemInput,
  IssueItemInput,
  LogItemInput,
  MetricItemInput,
  SpanItemInput,
} from './item-schemas';
import type {
  ActionEvent,
  Context,
  IssueEvent,
  LogEvent,
  MetricEvent,
  Sdk,
  SpanEvent,
} from '../core/batch';

type Defaults = {
  release?: string | undefined;
  environment?: string | undefined;
  service_name?: string | undefined;
};

/** Where an item sits in the request, for error texts ("logs[3].release"). */
export type ItemPath = string;

function context(item: Defaults, defaults: Defaults, at: ItemPath): Context {
  const pick = (key: keyof Context) => {
    const value = (item[key] ?? defaults[key])?.trim();
    if (!value) {
      throw fail.validation(
        `${at}.${key} is required and must not be blank`,
        `Set ${key} on the item or once for the whole batch.`,
      );
    }
    return value;
  };
  return {
    release: pick('release'),
    environment: pick('environment'),
    service_name: pick('service_name'),
  };
}

/** `severity` and its alias `level`: both normalize; sending both with different meanings is refused. */
function severityOf(
  item: { severity?: string | undefined; level?: string | undefined },
  fallback: Severity,
  at: ItemPath,
) {
  const s = item.severity === undefined ? undefined : normalizeSeverity(item.severity);
  const l = item.level === undefined ? undefined : normalizeSeverity(item.level);
  if (s === null || l === null) throw fail.validation(`${at}: unknown severity or level`);
  if (s !== undefined && l !== undefined && s !== l) {
    throw fail.validation(`${at}: severity and level conflict; send one value`);
  }
  return s ?? l ?? fallback;
}

const ms = (iso: string) => Date.parse(iso);

/** UTF-8 size of what a stream is billed for (message or value plus attributes). */
export const billedBytes = (text: string, attributesJson: string) =>
  Buffer.byteLength(text) + Buffer.byteLength(attributesJson);

/**
 * The first `max` characters counted as code points, as the item schemas count them: a title
 * the schema accepted is kept whole, and a cut never leaves half a surrogate pair.
 */
function firstCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  for (let points = 0; points < max && units < text.length; points += 1)
    units += (text.codePointAt(units) ?? 0) > 0xffff ? 2 : 1;
  return text.slice(0, units);
}

export function normalizeIssue(
  item: IssueItemInput,
  defaults: Defaults,
  sdk: Sdk,
  at: ItemPath,
): IssueEvent {
  const exception = item.exception
    ? {
        type: item.exception.type,
        ...(item.exception.value !== undefined ? { value: item.exception.value } : {}),
      }
    : null;
  const title =
    item.title?.trim() ||
    (exception
      ? `${exception.type}${exception.value ? `: ${exception.value}` : ''}`
      : item.message.split('\n')[0] || 'Error');
  return {
    kind: 'issue',
    id: item.id,
    sdk,
    ...context(item, defaults, at),
    occurredAt: ms(item.occurred_at),
    severity: severityOf(item, 'error', at),
    title: firstCodePoints(title, 1024),
    message: item.message,
    exception,
    stackTrace: item.stack_trace ?? null,
    fingerprint: deriveFingerprint({
      fingerprint: item.fingerprint,
      exceptionType: exception?.type,
      stackTrace: item.stack_trace,
      message: item.message,
    }),
    attributes: item.attributes ?? {},
    traceId: item.trace_id ?? null,
    spanId: item.span_id ?? null,
    breadcrumbs:
      item.breadcrumbs?.map(({ level, ...rest }) => {
        const canonical = level === undefined ? null : normalizeSeverity(level);
        return canonical ? { ...rest, level: canonical } : rest;
      }) ?? null,
    breadcrumbsTruncated: item.breadcrumbs_truncated ?? false,
  };
}

export function normalizeLog(
  item: LogItemInput,
  defaults: Defaults,
  sdk: Sdk,
  at: ItemPath,
): LogEvent {
  const attributes = item.attributes ?? {};
  // Serialized once: the store writes it and billing counts its bytes.
  const attributesJson = JSON.stringify(attributes);
  return {
    kind: 'log',
    id: item.id,
    sdk,
    ...context(item, defaults, at),
    occurredAt: ms(item.occurred_at),
    severity: severityOf(item, 'info', at),
    message: item.message,
    source: item.source ?? 'app',
    attributes,
    traceId: item.trace_id ?? null,
    spanId: item.span_id ?? null,
    attributesJson,
    bytes: billedBytes(item.message, attributesJson),
  };
}

export function normalizeSpan(
  item: SpanItemInput,
  defaults: Defaults,
  sdk: Sdk,
  at: ItemPath,
): SpanEvent {
  if (item.parent_span_id === item.span_id) {
    throw fail.validation(`${at}.parent_span_id must differ from span_id`);
  }
  return {
    kind: 'trace_span',
    id: item.id,
    sdk,
    ...context(item, defaults, at),
    traceId: item.trace_id,
    spanId: item.span_id,
    parentSpanId: item.parent_span_id ?? null,
    name: item.name,
    operation: item.operation ?? null,
    spanKind: item.kind ?? null,
    startedAt: ms(item.started_at),
    durationMs: item.duration_ms,
    status: item.status ?? null,
    statusMessage: item.status_message ?? null,
    attributes: item.attributes ?? {},
    events: item.events ?? [],
  };
}

export function normalizeAction(
  item: ActionItemInput,
  defaults: Defaults,
  sdk: Sdk,
  at: ItemPath,
): ActionEvent {
  return {
    kind: 'action',
    id: item.id,
    sdk,
    ...context(item, defaults, at),
    occurredAt: ms(item.occurred_at),
    name: item.name,
    actionKind: item.kind,
    distinctId: item.distinct_id,
    sessionId: item.session_id ?? null,
    properties: item.properties ?? {},
    traceId: item.trace_id ?? null,
    spanId: item.span_id ?? null,
  };
}

export function normalizeMetric(
  item: MetricItemInput,
  defaults: Defaults,
  sdk: Sdk,
  at: ItemPath,
): MetricEvent {
  const attributes = item.attributes ?? {};
  const attributesJson = JSON.stringify(attributes);
  return {
    kind: 'metric',
    id: item.id,
    sdk,
    ...context(item, defaults, at),
    occurredAt: ms(item.occurred_at),
    name: item.name,
    metricKind: item.kind,
    value: item.value,
    unit: item.unit ?? null,
    temporality: item.temporality ?? null,
    attributes,
    traceId: item.trace_id ?? null,
    spanId: item.span_id ?? null,
    attributesJson,
    bytes: billedBytes(`${item.name}${item.value}`, attributesJson),
  };
}
