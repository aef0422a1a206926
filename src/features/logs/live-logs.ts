import type { Log, LogListFilters } from '../../api/queries/logs';
import {
  matchesAttributeFilters,
  type AttributeFilter,
  type IndexLimits,
} from '../../lib/attribute-filter';
import type { LiveEventData } from '../../live/live-message';

/**
 * The live tail as pure functions: read a live record as a Log, decide whether it belongs to
 * the list on screen (the same filters the service applies), and merge it with the fetched
 * pages by id, newest first.
 */

const SEVERITIES = new Set(['info', 'warning', 'error', 'critical']);
const str = (v: unknown): v is string => typeof v === 'string';
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The live record as a Log, or null when it does not have the Log shape (then it is skipped). */
export function liveLogOf(data: LiveEventData): Log | null {
  const d = data as Record<string, unknown>;
  const triage = d.triage;
  const nextAction = d.next_action;
  if (
    !str(d.severity) ||
    !SEVERITIES.has(d.severity) ||
    !str(d.message) ||
    !str(d.occurred_at) ||
    !Number.isFinite(Date.parse(d.occurred_at)) ||
    !str(d.service_name) ||
    !str(d.release) ||
    !str(d.environment) ||
    !str(d.source) ||
    !strOrNull(d.trace_id ?? null) ||
    !strOrNull(d.span_id ?? null) ||
    !isRecord(d.attributes) ||
    !isRecord(triage) ||
    !str(triage.effective_severity) ||
    typeof triage.ignored !== 'boolean' ||
    typeof triage.rule_applied !== 'boolean' ||
    !isRecord(nextAction) ||
    !str(nextAction.code)
  ) {
    return null;
  }
  return data as unknown as Log;
}

/** What the list on screen shows: its query filters, the read's RFC3339 `since`, the checked filters. */
export type TailFilter = {
  filters: LogListFilters;
  /** The RFC3339 `since` of the read (its first page's). */
  since: string;
  /** Project ids of the scope; null for every readable project. */
  projectIds: readonly string[] | null;
  attributeFilters: readonly AttributeFilter[];
  /** The index limits of the catalog's coverage, when known (else the documented ones). */
  indexLimits?: IndexLimits | undefined;
};

/** Whether a live log belongs to the list: the service's filters, applied the same way. */
export function matchesTail(log: Log, tail: TailFilter): boolean {
  const f = tail.filters;
  if (tail.projectIds !== null && !tail.projectIds.includes(log.project_id)) return false;
  const at = Date.parse(log.occurred_at);
  if (at < Date.parse(tail.since)) return false;
  if (f.until !== undefined && at >= Date.parse(f.until)) return false;
  const status = f.status ?? 'active';
  if (status === 'active' && log.triage.ignored) return false;
  if (status === 'ignored' && !log.triage.ignored) return false;
  // Severity filters compare the effective severity (after rules).
  if (f.severity !== undefined && log.triage.effective_severity !== f.severity) return false;
  if (f.service_name !== undefined && log.service_name !== f.service_name) return false;
  if (f.release !== undefined && log.release !== f.release) return false;
  if (f.environment !== undefined && log.environment !== f.environment) return false;
  if (f.trace_id !== undefined && log.trace_id !== f.trace_id) return false;
  if (f.search !== undefined && !log.message.toLowerCase().includes(f.search.toLowerCase())) {
    return false;
  }
  return matchesAttributeFilters(log.attributes, tail.attributeFilters, tail.indexLimits);
}

/** Whether the range still takes new logs (an `until` in the past closes it). */
export function rangeIsOpen(until: string | undefined, now: number): boolean {
  return until === undefined || Date.parse(until) > now;
}

/** The list's order: newest first, then by id (as the service orders). */
export function compareLogs(a: Log, b: Log): number {
  const ta = Date.parse(a.occurred_at);
  const tb = Date.parse(b.occurred_at);
  if (ta !== tb) return tb - ta;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The fetched rows with the live ones merged in by id. A fetched row wins over the live copy
 * (it was read with the current rules); live rows take their place in time order.
 */
export function mergeLive(fetched: readonly Log[], live: readonly Log[]): Log[] {
  if (live.length === 0) return fetched as Log[];
  const known = new Set(fetched.map((l) => l.id));
  const extra = live.filter((l) => !known.has(l.id)).sort(compareLogs);
  if (extra.length === 0) return fetched as Log[];
  const out: Log[] = [];
  let i = 0;
  let j = 0;
  while (i < fetched.length || j < extra.length) {
    const a = fetched[i];
    const b = extra[j];
    if (b === undefined || (a !== undefined && compareLogs(a, b) <= 0)) {
      out.push(a as Log);
      i++;
    } else {
      out.push(b);
      j++;
    }
  }
  return out;
}

/**
 * The rows on screen and the live logs held back. While the tail is paused (`frozen`: the
 * live ids already shown when it paused), newer live logs are counted, not inserted.
 */
export function tailView(
  fetched: readonly Log[],
  live: readonly Log[],
  frozen: ReadonlySet<string> | null,
): { rows: Log[]; pending: number } {
  if (frozen === null) return { rows: mergeLive(fetched, live), pending: 0 };
  const known = new Set(fetched.map((l) => l.id));
  const shown: Log[] = [];
  let pending = 0;
  for (const l of live) {
    if (frozen.has(l.id)) shown.push(l);
    else if (!known.has(l.id)) pending++;
  }
  return { rows: mergeLive(fetched, shown), pending };
}
