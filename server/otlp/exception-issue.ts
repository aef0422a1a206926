import type { IssueItemInput } from '../ingest/item-schemas';
import type { OtlpKeyValue } from './otlp-messages';
import { attributes, isoOf, stringAttribute } from './otlp-values';

/**
 * An issue occurrence from OTel's exception attributes (`exception.type`, `exception.message`,
 * `exception.stacktrace`), as a span's `exception` event or a log record carries them. Grouped
 * like any other occurrence (by type and stack). Null when neither a type nor a message is set.
 */
export function exceptionIssue(
  list: OtlpKeyValue[],
  at: { id: string; occurredAt: number; traceId: string | null; spanId: string | null },
): IssueItemInput | null {
  const type = stringAttribute(list, 'exception.type');
  const message = stringAttribute(list, 'exception.message');
  if (!type && !message) return null;
  const stack = stringAttribute(list, 'exception.stacktrace');
  const rest = attributes(list.filter((kv) => !kv.key.startsWith('exception.')));
  return {
    id: at.id,
    occurred_at: isoOf(at.occurredAt),
    message: message ?? type ?? '',
    ...(type ? { exception: { type, ...(message ? { value: message } : {}) } } : {}),
    ...(stack ? { stack_trace: stack } : {}),
    attributes: rest,
    trace_id: at.traceId,
    span_id: at.spanId,
  };
}
