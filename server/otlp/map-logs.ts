import type { OtlpAdmission } from './otlp-admission';
import type { OtlpLogRecord, OtlpLogsRequest, OtlpScope } from './otlp-messages';
import { resourceContext, type ResourceContext } from './otlp-resource';
import { exceptionIssue } from './exception-issue';
import { anyValue, attributes, IdMinter, idHex, isoOf, msOf } from './otlp-values';
import { normalizeSeverity, type Severity } from '../domain/severity';

/**
 * OTel severity numbers in ranges of four (TRACE 1–4 … FATAL 21–24) to Lookout's severities;
 * TRACE and DEBUG are below info, which is Lookout's lowest. Without a number, a severity text
 * Lookout knows (`error`, `WARN`, …) decides; else info.
 */
export function severityOf(number: number, text: string): Severity {
  if (number >= 21) return 'critical';
  if (number >= 17) return 'error';
  if (number >= 13) return 'warning';
  if (number >= 1) return 'info';
  return normalizeSeverity(text.trim().toLowerCase()) ?? 'info';
}

/** Log records to logs; one carrying `exception.*` attributes also becomes an issue occurrence. */
export function mapLogs(request: OtlpLogsRequest, admission: OtlpAdmission, now: number): void {
  const ids = new IdMinter();
  request.resourceLogs.forEach((rl, r) => {
    let ctx: ResourceContext | null = null;
    rl.scopeLogs.forEach((sl, s) =>
      sl.logRecords.forEach((record, n) => {
        const at = `resourceLogs[${r}].scopeLogs[${s}].logRecords[${n}]`;
        admission.guard(at, () => {
          ctx ??= resourceContext(rl.resource);
          mapLog(record, sl.scope, ctx, at, { ids, admission, now });
        });
      }),
    );
  });
}

function mapLog(
  record: OtlpLogRecord,
  scope: OtlpScope,
  ctx: ResourceContext,
  at: string,
  m: { ids: IdMinter; admission: OtlpAdmission; now: number },
): void {
  // OTel: use the observed time when the event time is unknown; a record with neither was
  // observed now, by this receiver.
  const occurredAt = msOf(record.timeUnixNano) ?? msOf(record.observedTimeUnixNano) ?? m.now;
  const body = anyValue(record.body);
  const message = typeof body === 'string' ? body : body === null ? '' : JSON.stringify(body);
  const traceId = idHex(record.traceId, 16, 'traceId');
  const spanId = idHex(record.spanId, 8, 'spanId');
  const attrs = attributes(record.attributes);
  const id = m.ids.mint(
    'log',
    ctx.key,
    scope?.name ?? '',
    record.timeUnixNano,
    record.observedTimeUnixNano,
    String(record.severityNumber),
    record.severityText,
    message,
    JSON.stringify(attrs),
    traceId ?? '',
    spanId ?? '',
  );
  const stored = m.admission.log(
    {
      id,
      occurred_at: isoOf(occurredAt),
      severity: severityOf(record.severityNumber, record.severityText),
      message,
      source: scope?.name || undefined,
      attributes: attrs,
      trace_id: traceId,
      span_id: spanId,
    },
    ctx,
    at,
  );
  if (!stored) return;
  const issue = exceptionIssue(record.attributes, {
    id: m.ids.mint('log-exception', id),
    occurredAt,
    traceId,
    spanId,
  });
  if (issue) m.admission.issue(issue, ctx, at);
}
