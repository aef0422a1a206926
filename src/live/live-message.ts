/**
 * One live-feed message (spec: Events): an envelope `{type, data}`. `type` is read before
 * `data`; types the console does not know, and anything malformed, are skipped, never thrown,
 * so a newer service cannot break an older console.
 */

export const LIVE_EVENT_TYPES = [
  'native_log',
  'native_issue',
  'native_trace_span',
  'native_action',
] as const;

export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** The canonical record of the event. Only `id` and `project_id` are relied on everywhere. */
export type LiveEventData = Readonly<Record<string, unknown>> & {
  readonly id: string;
  readonly project_id: string;
};

export type LiveEvent = { readonly type: LiveEventType; readonly data: LiveEventData };

function isLiveEventType(value: unknown): value is LiveEventType {
  return typeof value === 'string' && (LIVE_EVENT_TYPES as readonly string[]).includes(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The event of a message, or null when the message is to be skipped. */
export function parseLiveMessage(raw: unknown): LiveEvent | null {
  // Only text frames carry events; binary frames are not part of the contract.
  if (typeof raw !== 'string') return null;
  let envelope: unknown;
  try {
    envelope = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(envelope) || !isLiveEventType(envelope.type)) return null;
  const { data } = envelope;
  if (!isRecord(data)) return null;
  if (typeof data.id !== 'string' || data.id === '') return null;
  if (typeof data.project_id !== 'string' || data.project_id === '') return null;
  return { type: envelope.type, data: data as LiveEventData };
}
