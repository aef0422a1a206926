import type { LiveEvent, LiveEventType } from './live-message';

/**
 * The live feed's recent events as pure transforms: merge by id, keep the newest N, count
 * what the user has not looked at yet per project, select by type and project. The store
 * (`live-store.ts`) only wraps these.
 */

/** How many recent events are kept in memory: enough for a glance, bounded under any rate. */
export const MAX_LIVE_EVENTS = 1_000;

export type LiveEntry = LiveEvent & { readonly seen: boolean };

export type LiveEvents = {
  /** By `eventKey`, in arrival order (oldest first); a replaced event moves to the end. */
  readonly entries: ReadonlyMap<string, LiveEntry>;
  /** Entries not yet seen, by `project_id` (kept in step with `entries`, so reads are O(projects)). */
  readonly unseen: Readonly<Record<string, number>>;
};

/** Which projects a view shows: null = every readable project (the scope "All projects"). */
export type ProjectFilter = readonly string[] | null;

export type EventFilter = {
  type?: LiveEventType | undefined;
  projectIds?: ProjectFilter | undefined;
  /** At most this many, newest first. */
  limit?: number | undefined;
};

export const emptyLiveEvents: LiveEvents = { entries: new Map(), unseen: {} };

/**
 * Ids are unique within a record kind (a log and an action may carry the same sender-chosen
 * UUID), so the key includes the type.
 */
export function eventKey(event: LiveEvent): string {
  return `${event.type}:${event.data.id}`;
}

function adjust(counts: Record<string, number>, projectId: string, delta: number) {
  const next = (counts[projectId] ?? 0) + delta;
  if (next > 0) counts[projectId] = next;
  else delete counts[projectId];
}

/**
 * Adds events; an event whose id is already present replaces it (an issue comes again with
 * each new occurrence) and counts as new again. Beyond `max`, the oldest are dropped.
 */
export function mergeEvents(
  state: LiveEvents,
  incoming: readonly LiveEvent[],
  max: number = MAX_LIVE_EVENTS,
): LiveEvents {
  if (incoming.length === 0) return state;
  const entries = new Map(state.entries);
  const unseen = { ...state.unseen };
  for (const event of incoming) {
    const key = eventKey(event);
    const previous = entries.get(key);
    if (previous) {
      entries.delete(key);
      if (!previous.seen) adjust(unseen, previous.data.project_id, -1);
    }
    entries.set(key, { ...event, seen: false });
    adjust(unseen, event.data.project_id, 1);
  }
  for (const [key, entry] of entries) {
    if (entries.size <= max) break;
    entries.delete(key);
    if (!entry.seen) adjust(unseen, entry.data.project_id, -1);
  }
  return { entries, unseen };
}

function inScope(projectId: string, projectIds: ProjectFilter | undefined): boolean {
  return projectIds == null || projectIds.includes(projectId);
}

/** Marks every event of the scope as seen. Returns the same state when nothing changes. */
export function markSeen(state: LiveEvents, projectIds: ProjectFilter): LiveEvents {
  if (countUnseen(state, projectIds) === 0) return state;
  const entries = new Map<string, LiveEntry>();
  for (const [key, entry] of state.entries) {
    entries.set(
      key,
      !entry.seen && inScope(entry.data.project_id, projectIds) ? { ...entry, seen: true } : entry,
    );
  }
  const unseen = { ...state.unseen };
  for (const projectId of Object.keys(unseen)) {
    if (inScope(projectId, projectIds)) delete unseen[projectId];
  }
  return { entries, unseen };
}

/** Events not seen yet in the scope. */
export function countUnseen(state: LiveEvents, projectIds: ProjectFilter): number {
  if (projectIds === null) {
    return Object.values(state.unseen).reduce((sum, n) => sum + n, 0);
  }
  return [...new Set(projectIds)].reduce((sum, id) => sum + (state.unseen[id] ?? 0), 0);
}

/** Events by type and project, newest first. */
export function selectEvents(state: LiveEvents, filter: EventFilter = {}): LiveEntry[] {
  const { type, projectIds, limit = Infinity } = filter;
  const all = [...state.entries.values()];
  const out: LiveEntry[] = [];
  for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
    const entry = all[i];
    if (!entry) continue;
    if (type !== undefined && entry.type !== type) continue;
    if (!inScope(entry.data.project_id, projectIds)) continue;
    out.push(entry);
  }
  return out;
}

/* ---------- What a row says about an event (plain text only) ---------- */

const typeLabels: Record<LiveEventType, string> = {
  native_log: 'Log',
  native_issue: 'Issue',
  native_trace_span: 'Span',
  native_action: 'Action',
};

export function eventTypeLabel(type: LiveEventType): string {
  return typeLabels[type];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The line a person reads first: a log's message, an issue's title, a span's or action's name. */
export function eventSummary(event: LiveEvent): string {
  const d = event.data;
  switch (event.type) {
    case 'native_log':
      return text(d.message) ?? '(empty message)';
    case 'native_issue':
      return text(d.title) ?? text(d.message) ?? '(untitled issue)';
    case 'native_trace_span':
      return text(d.name) ?? '(unnamed span)';
    case 'native_action':
      return text(d.name) ?? '(unnamed action)';
  }
}

/** When the event happened (RFC3339), as its record says. */
export function eventTime(event: LiveEvent): string | undefined {
  const d = event.data;
  switch (event.type) {
    case 'native_issue':
      return text(d.last_seen_at);
    case 'native_trace_span':
      return text(d.started_at);
    default:
      return text(d.occurred_at);
  }
}

/** A log's or issue's severity, a failed span's `error`; nothing for the rest. */
export function eventSeverity(event: LiveEvent): string | undefined {
  const d = event.data;
  switch (event.type) {
    case 'native_log':
    case 'native_issue':
      return text(d.severity);
    case 'native_trace_span':
      return d.status === 'error' ? 'error' : undefined;
    default:
      return undefined;
  }
}
