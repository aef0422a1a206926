import type { z } from 'zod';
import { fail } from '../core/api-error';
import {
  MAX_ITEMS,
  NativeEnvelope,
  SDK_EVENT_TYPES,
  SdkBatch,
  sdkItemSchemas,
  type SdkEventType,
} from './batch-schemas';
import type {
  ActionItemInput,
  IssueItemInput,
  LogItemInput,
  MetricItemInput,
  SpanItemInput,
} from './item-schemas';
import {
  normalizeAction,
  normalizeIssue,
  normalizeLog,
  normalizeMetric,
  normalizeSpan,
} from './normalize';
import { emptyBatch, type Batch } from '../core/batch';
import { wellFormedValue } from './well-formed';

/** Spec texts of a rejected SDK batch (`422 validation_failed`), exactly. */
export const SDK_ERRORS = {
  duplicateIds: 'SDK event ids must be unique within a batch',
  noEvents: 'SDK event batch requires at least one event',
  unsupportedType: 'SDK event type is not supported by this ingest route',
} as const;

/** A field as the sender wrote it: `logs[0].release`, `events[3].trace_id`. */
function fieldPath(at: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, s) => (typeof s === 'number' ? `${acc}[${s}]` : acc ? `${acc}.${String(s)}` : String(s)),
    at,
  );
}

function invalid(error: z.ZodError, at = ''): never {
  const first = error.issues.slice(0, 5).map((i) => {
    const field = fieldPath(at, i.path) || 'body';
    return i.code === 'unrecognized_keys'
      ? `${field}: unknown key ${i.keys.join(', ')}`
      : `${field}: ${i.message}`;
  });
  throw fail.validation(
    `invalid telemetry: ${first.join('; ')}`,
    'Fix the named fields; nothing in this batch was stored.',
  );
}

function requireObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw fail.invalidJson(
      422,
      'request body must be a JSON object',
      'Send a JSON object with the documented fields.',
    );
  }
  return raw as Record<string, unknown>;
}

function tooMany(n: number) {
  if (n > MAX_ITEMS) {
    throw fail.validation(
      `a batch holds at most ${MAX_ITEMS} items; this one has ${n}`,
      'Split the batch.',
    );
  }
}

/** `POST /api/telemetry/ingest`: validates the whole envelope before anything is stored. */
export function parseNativeEnvelope(
  raw: unknown,
  projectId: string,
): Batch & { declaredProjectId?: string } {
  // Lone surrogates become U+FFFD in every string and key before anything reads them.
  const body = requireObject(wellFormedValue(raw));
  if ('metrics' in body) {
    throw fail.validation(
      'metrics are not accepted by the native envelope',
      'Send metrics in an SDK batch to POST /v1/events.',
    );
  }
  // The size limit first, so an oversized envelope is refused before every item is parsed.
  const lists = ['issues', 'logs', 'trace_spans', 'actions'] as const;
  tooMany(lists.reduce((n, k) => n + (Array.isArray(body[k]) ? body[k].length : 0), 0));
  const parsed = NativeEnvelope.safeParse(body);
  if (!parsed.success) invalid(parsed.error);
  const env = parsed.data;
  if (lists.every((k) => (env[k]?.length ?? 0) === 0)) {
    throw fail.validation(
      'the envelope holds no items',
      'Send at least one of issues, logs, trace_spans or actions.',
    );
  }
  // A repeated id inside one envelope is not an item "accepted earlier": counting it in
  // already_accepted (and storing only the first) would hide a sender bug, so it is refused,
  // as the SDK route refuses it.
  const seen = new Map<string, string>();
  for (const k of lists) {
    env[k]?.forEach((item, n) => {
      const first = seen.get(item.id);
      if (first) {
        throw fail.validation(
          `item ids must be unique within a batch: ${k}[${n}].id repeats ${first}.id`,
          'Give every item its own id; keep the same ids when re-sending.',
        );
      }
      seen.set(item.id, `${k}[${n}]`);
    });
  }
  const sdk = env.sdk ?? { name: 'native', version: '1' };
  const defaults = {
    release: env.release,
    environment: env.environment,
    service_name: env.service_name,
  };
  const batch = emptyBatch(projectId);
  env.issues?.forEach((i, n) =>
    batch.issues.push(normalizeIssue(i, defaults, sdk, `issues[${n}]`)),
  );
  env.logs?.forEach((l, n) => batch.logs.push(normalizeLog(l, defaults, sdk, `logs[${n}]`)));
  env.trace_spans?.forEach((s, n) =>
    batch.spans.push(normalizeSpan(s, defaults, sdk, `trace_spans[${n}]`)),
  );
  env.actions?.forEach((a, n) =>
    batch.actions.push(normalizeAction(a, defaults, sdk, `actions[${n}]`)),
  );
  return env.project_id === undefined ? batch : { ...batch, declaredProjectId: env.project_id };
}

/** `POST /v1/events`: the spec's three batch rejections first, then each event's own fields. */
export function parseSdkBatch(
  raw: unknown,
  projectId: string,
): Batch & { declaredProjectId?: string } {
  const body = requireObject(wellFormedValue(raw));
  const events = body.events;
  if (events === undefined || (Array.isArray(events) && events.length === 0)) {
    throw fail.validation(SDK_ERRORS.noEvents, 'Send at least one event in `events`.');
  }
  if (!Array.isArray(events)) throw fail.validation('events must be an array of events');
  tooMany(events.length);
  for (const e of events) {
    const type = (e as { type?: unknown } | null)?.type;
    if (!SDK_EVENT_TYPES.includes(type as SdkEventType)) {
      throw fail.validation(
        SDK_ERRORS.unsupportedType,
        `Use one of: ${SDK_EVENT_TYPES.join(', ')}.`,
      );
    }
  }
  // Only string ids are compared: a missing or mistyped id is reported by the event's schema.
  const ids = events
    .map((e) => (e as { id?: unknown }).id)
    .filter((id): id is string => typeof id === 'string')
    .map((id) => id.toLowerCase());
  if (new Set(ids).size !== ids.length) {
    throw fail.validation(
      SDK_ERRORS.duplicateIds,
      'Give every event its own id; keep the same ids when re-sending.',
    );
  }
  const head = SdkBatch.omit({ events: true }).safeParse({ ...body, events: undefined });
  if (!head.success) invalid(head.error);
  const { sdk, context } = head.data;
  const defaults = {
    release: context.release,
    environment: context.environment,
    service_name: typeof context.service_name === 'string' ? context.service_name : undefined,
  };
  const batch = emptyBatch(projectId);
  events.forEach((e: unknown, n) => {
    const { type, ...fields } = e as { type: SdkEventType };
    const parsed = sdkItemSchemas[type].safeParse(fields);
    const at = `events[${n}]`;
    if (!parsed.success) invalid(parsed.error, at);
    switch (type) {
      case 'issue':
        batch.issues.push(normalizeIssue(parsed.data as IssueItemInput, defaults, sdk, at));
        break;
      case 'log':
        batch.logs.push(normalizeLog(parsed.data as LogItemInput, defaults, sdk, at));
        break;
      case 'trace_span':
        batch.spans.push(normalizeSpan(parsed.data as SpanItemInput, defaults, sdk, at));
        break;
      case 'action':
        batch.actions.push(normalizeAction(parsed.data as ActionItemInput, defaults, sdk, at));
        break;
      case 'metric':
        batch.metrics.push(normalizeMetric(parsed.data as MetricItemInput, defaults, sdk, at));
        break;
    }
  });
  // One row per reason: a report naming a reason twice is summed.
  if (head.data.dropped_events?.length) {
    const byReason = new Map<string, number>();
    for (const d of head.data.dropped_events)
      byReason.set(d.reason, (byReason.get(d.reason) ?? 0) + d.events);
    batch.dropped = [...byReason].map(([reason, events]) => ({ reason, events }));
  }
  return head.data.project_id === undefined
    ? batch
    : { ...batch, declaredProjectId: head.data.project_id };
}
