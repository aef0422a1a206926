import type { z } from 'zod';
import { fail } from '../core/api-error';
import {
  MAX_ITEMS,
  NativeEnvelope,
  SDK_EVENT_TYPES,
  SdkBatch,
  type SdkEventType,
} from './batch-schemas';
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

/** The first five problems of a failed item check, each naming its field as the sender wrote it. */
function describeIssues(issues: readonly z.core.$ZodIssue[], at = ''): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      const field = fieldPath(at, i.path) || 'body';
      return i.code === 'unrecognized_keys'
        ? `${field}: unknown key ${i.keys.join(', ')}`
        : `${field}: ${i.message}`;
    })
    .join('; ');
}

const rejected = (issues: readonly z.core.$ZodIssue[], at = '') =>
  fail.validation(
    `invalid telemetry: ${describeIssues(issues, at)}`,
    'Fix the named fields; nothing in this batch was stored.',
  );

function invalid(error: z.ZodError, at = ''): never {
  throw rejected(error.issues, at);
}

/**
 * A failed check of a whole SDK batch, answered as if the head and then each event had been
 * checked in turn: the head's problems if it has any, else those of the first bad event.
 */
export function rejectSdkBatch(error: { issues: readonly z.core.$ZodIssue[] }): never {
  const head = error.issues.filter((i) => i.path[0] !== 'events');
  if (head.length > 0) throw rejected(head);
  const eventOf = (i: z.core.$ZodIssue) => (typeof i.path[1] === 'number' ? i.path[1] : -1);
  const first = Math.min(...error.issues.map(eventOf));
  throw rejected(error.issues.filter((i) => eventOf(i) === first));
}

/** A failed check of a whole native envelope. */
export function rejectNativeEnvelope(error: { issues: readonly z.core.$ZodIssue[] }): never {
  throw rejected(error.issues);
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
  const body = wellFormedValue(raw);
  precheckNativeEnvelope(body);
  const parsed = NativeEnvelope.safeParse(body);
  if (!parsed.success) invalid(parsed.error);
  return nativeBatch(parsed.data, projectId);
}

const NATIVE_LISTS = ['issues', 'logs', 'trace_spans', 'actions'] as const;

/**
 * What the native route refuses before the envelope's schema runs: a body that is not an
 * object, metrics, and more items than a batch holds (so an oversized envelope is refused
 * before every item is parsed).
 */
export function precheckNativeEnvelope(raw: unknown): void {
  const body = requireObject(raw);
  if ('metrics' in body) {
    throw fail.validation(
      'metrics are not accepted by the native envelope',
      'Send metrics in an SDK batch to POST /v1/events.',
    );
  }
  tooMany(NATIVE_LISTS.reduce((n, k) => n + (Array.isArray(body[k]) ? body[k].length : 0), 0));
}

/** A checked envelope as the batch to store: the rules across items, then each item's own. */
export function nativeBatch(
  env: z.output<typeof NativeEnvelope>,
  projectId: string,
): Batch & { declaredProjectId?: string } {
  const lists = NATIVE_LISTS;
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
  const body = wellFormedValue(raw);
  precheckSdkBatch(body);
  const parsed = SdkBatch.safeParse(body);
  if (!parsed.success) rejectSdkBatch(parsed.error);
  return sdkBatch(parsed.data, projectId);
}

/** The spec's three batch rejections (and the size limit), before the batch's schema runs. */
export function precheckSdkBatch(raw: unknown): void {
  const body = requireObject(raw);
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
}

/** A checked SDK batch as the batch to store. */
export function sdkBatch(
  data: z.output<typeof SdkBatch>,
  projectId: string,
): Batch & { declaredProjectId?: string } {
  const { sdk, context } = data;
  const defaults = {
    release: context.release,
    environment: context.environment,
    service_name: typeof context.service_name === 'string' ? context.service_name : undefined,
  };
  const batch = emptyBatch(projectId);
  data.events.forEach((event, n) => {
    const at = `events[${n}]`;
    switch (event.type) {
      case 'issue':
        batch.issues.push(normalizeIssue(event, defaults, sdk, at));
        break;
      case 'log':
        batch.logs.push(normalizeLog(event, defaults, sdk, at));
        break;
      case 'trace_span':
        batch.spans.push(normalizeSpan(event, defaults, sdk, at));
        break;
      case 'action':
        batch.actions.push(normalizeAction(event, defaults, sdk, at));
        break;
      case 'metric':
        batch.metrics.push(normalizeMetric(event, defaults, sdk, at));
        break;
    }
  });
  // One row per reason: a report naming a reason twice is summed.
  if (data.dropped_events?.length) {
    const byReason = new Map<string, number>();
    for (const d of data.dropped_events)
      byReason.set(d.reason, (byReason.get(d.reason) ?? 0) + d.events);
    batch.dropped = [...byReason].map(([reason, events]) => ({ reason, events }));
  }
  return data.project_id === undefined ? batch : { ...batch, declaredProjectId: data.project_id };
}
