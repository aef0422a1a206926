import {
  BULK_MAX_IDS,
  HISTOGRAM_MAX_IDS,
  type BulkChange,
  type BulkResult,
  type Issue,
  type IssueListFilters,
} from '../../api/queries/issues';
import { formatUtcDateTime } from '../../lib/format-time';
import { innermostFirst, parseStackTrace } from '../../lib/stack-frames';
import type { TimeRange } from '../../lib/time-range';
import type { LiveEventData } from '../../live/live-message';
import type { IssueSort } from './issues-search';

/**
 * The triage board as pure functions: live issues read and matched against the board's
 * filters, client-side sorts of the loaded rows, the culprit line, and bulk changes split per
 * project into requests of at most 100 ids, with the undo that puts back what they changed.
 */

const SEVERITIES = new Set(['info', 'warning', 'error', 'critical']);
const str = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Derived priority (spec): error and critical give high, warning medium, info low. */
export function derivedPriority(severity: Issue['severity']): Issue['priority'] {
  if (severity === 'error' || severity === 'critical') return 'high';
  return severity === 'warning' ? 'medium' : 'low';
}

/**
 * A live issue (response version 1) as a board row, or null when it lacks the shape. Only a
 * NEW issue (one occurrence) is taken as a row on its own: its priority is derived and nobody
 * has assigned it yet. A live copy of an issue that existed before says nothing about its
 * priority or assignee, so it is returned as `known: false` (the board re-reads instead).
 */
export function liveIssueOf(data: LiveEventData): { issue: Issue; known: boolean } | null {
  const d = data as Record<string, unknown>;
  const triage = d.triage;
  if (
    !str(d.title) ||
    !str(d.message) ||
    !str(d.severity) ||
    !SEVERITIES.has(d.severity) ||
    !str(d.first_seen_at) ||
    !str(d.last_seen_at) ||
    !str(d.service_name) ||
    !str(d.release) ||
    !str(d.environment) ||
    typeof d.occurrence_count !== 'number' ||
    !isRecord(triage) ||
    !str(triage.effective_severity) ||
    !SEVERITIES.has(triage.effective_severity) ||
    !str(d.status)
  ) {
    return null;
  }
  const effective = triage.effective_severity as Issue['severity'];
  const status: Issue['status'] =
    d.status === 'ignored' || d.status === 'archived'
      ? 'archived'
      : d.status === 'resolved'
        ? 'resolved'
        : 'unresolved';
  const issue = {
    ...(d as unknown as Issue),
    status,
    priority: derivedPriority(effective),
    priority_source: 'derived',
    assignee: null,
  } satisfies Issue;
  return { issue, known: d.occurrence_count === 1 };
}

/** Whether a live issue belongs on the board: the service's filters, applied the same way. */
export function matchesBoard(
  issue: Issue,
  filters: IssueListFilters,
  since: string,
  projectIds: readonly string[] | null,
): boolean {
  if (projectIds !== null && !projectIds.includes(issue.project_id)) return false;
  if (Date.parse(issue.last_seen_at) < Date.parse(since)) return false;
  if (filters.status !== undefined && issue.status !== filters.status) return false;
  if (filters.severity !== undefined && issue.triage.effective_severity !== filters.severity) {
    return false;
  }
  if (filters.priority !== undefined && issue.priority !== filters.priority) return false;
  if (filters.assignee !== undefined && filters.assignee !== 'none') return false;
  if (filters.service_name !== undefined && issue.service_name !== filters.service_name) {
    return false;
  }
  if (filters.release !== undefined && issue.release !== filters.release) return false;
  if (filters.environment !== undefined && issue.environment !== filters.environment) return false;
  return true;
}

/** New live issues first (newest first), then the fetched rows; merged by id. */
export function mergeLiveIssues(fetched: readonly Issue[], live: readonly Issue[]): Issue[] {
  if (live.length === 0) return fetched as Issue[];
  const known = new Set(fetched.map((i) => i.id));
  const extra = live.filter((i) => !known.has(i.id));
  return extra.length === 0 ? (fetched as Issue[]) : [...extra, ...fetched];
}

/** The loaded rows in the chosen order; `last_seen` keeps the service's order. */
export function sortIssues(rows: readonly Issue[], sort: IssueSort): Issue[] {
  if (sort === 'last_seen') return rows as Issue[];
  const out = [...rows];
  if (sort === 'occurrences') out.sort((a, b) => b.occurrence_count - a.occurrence_count);
  else out.sort((a, b) => Date.parse(b.first_seen_at) - Date.parse(a.first_seen_at));
  return out;
}

/** Where it happened: the innermost in-app frame when the stack has one, else the message. */
export function culpritOf(issue: Pick<Issue, 'stack_trace' | 'message'>): string {
  if (issue.stack_trace) {
    const frames = innermostFirst(parseStackTrace(issue.stack_trace));
    const frame = frames.find((f) => f.inApp && (f.fn || f.file)) ?? null;
    if (frame) {
      const where = frame.file ? `${frame.file}${frame.line !== null ? `:${frame.line}` : ''}` : '';
      return frame.fn ? `${frame.fn}${where ? ` (${where})` : ''}` : where;
    }
  }
  return issue.message;
}

/** One bulk request: ids of one project, at most 100. */
export type BulkRequest = { projectId: string; issueIds: string[]; change: BulkChange };

/** Splits a selection by project (in first-seen order) and into chunks of at most 100 ids. */
export function planBulk(
  issues: readonly Pick<Issue, 'id' | 'project_id'>[],
  change: BulkChange,
): BulkRequest[] {
  const byProject = new Map<string, string[]>();
  for (const issue of issues) {
    const ids = byProject.get(issue.project_id) ?? [];
    if (!ids.includes(issue.id)) ids.push(issue.id);
    byProject.set(issue.project_id, ids);
  }
  const out: BulkRequest[] = [];
  for (const [projectId, ids] of byProject) {
    for (let i = 0; i < ids.length; i += BULK_MAX_IDS) {
      out.push({ projectId, issueIds: ids.slice(i, i + BULK_MAX_IDS), change });
    }
  }
  return out;
}

/** The assignee value that would put this assignee back (`none` for nobody). */
export function assigneeValueOf(assignee: Issue['assignee']): string {
  if (assignee === null) return 'none';
  return assignee.type === 'team' ? `team:${assignee.team_id}` : assignee.user_id;
}

/** Which field a change sets. */
export function changedField(change: BulkChange): 'status' | 'priority' | 'assignee' {
  if ('status' in change) return 'status';
  if ('priority' in change) return 'priority';
  return 'assignee';
}

/**
 * The requests that undo a bulk change: every issue it `updated` gets its previous value of
 * the changed field back, grouped by that value (and split per project as any bulk change).
 */
export function planUndo(
  change: BulkChange,
  results: readonly BulkResult[],
  before: ReadonlyMap<string, Issue>,
): BulkRequest[] {
  const field = changedField(change);
  const groups = new Map<string, { change: BulkChange; issues: Issue[] }>();
  for (const r of results) {
    if (r.outcome !== 'updated') continue;
    const prev = before.get(r.issueId);
    if (!prev) continue;
    let back: BulkChange;
    if (field === 'status') back = { status: prev.status };
    else if (field === 'priority') back = { priority: prev.priority };
    else back = { assignee: assigneeValueOf(prev.assignee) };
    const key = JSON.stringify(back);
    const group = groups.get(key) ?? { change: back, issues: [] };
    group.issues.push(prev);
    groups.set(key, group);
  }
  return [...groups.values()].flatMap((g) => planBulk(g.issues, g.change));
}

/**
 * The issues whose priority an undo cannot put back as it was: a bulk priority change made
 * their derived priority manual, and the spec's changes take only `high`, `medium` or `low`
 * (each makes the priority manual); nothing returns a priority to derived. Their undo sets the
 * earlier value back as a manual priority, and the console says so.
 */
export function derivedPrioritiesLost(
  change: BulkChange,
  results: readonly BulkResult[],
  before: ReadonlyMap<string, Issue>,
): Issue[] {
  if (changedField(change) !== 'priority') return [];
  return results.flatMap((r) => {
    const prev = before.get(r.issueId);
    return r.outcome === 'updated' && prev?.priority_source === 'derived' ? [prev] : [];
  });
}

/** Two letters for an avatar: initials of the name, else of the email's local part. */
export function initialsOf(name: string | null, fallback: string): string {
  const source = (name ?? '').trim() || fallback.split('@')[0] || '?';
  const parts = source.split(/[\s._-]+/).filter(Boolean);
  const letters =
    parts.length >= 2 ? `${parts[0]?.[0] ?? ''}${parts[1]?.[0] ?? ''}` : source.slice(0, 2);
  return letters.toUpperCase();
}

/** "3m ago", "5h ago", "2d ago": coarse, for scanning; the exact time goes in a title. */
export function relativeTime(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return 'just now';
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ago`;
  const d = Math.floor(h / 24);
  if (d < 60) return `${d}d ago`;
  return `${Math.floor(d / 30)}mo ago`;
}

/**
 * Histogram batches of the loaded issues: chunks of at most 100 ids in load order, so a new
 * page adds a batch and never changes an earlier one (pages hold 100 issues).
 */
export function histogramBatches(ids: readonly string[], size = HISTOGRAM_MAX_IDS): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += size) batches.push(ids.slice(i, i + size));
  return batches;
}

/** What a row's sparkline covers, for its accessible name: "Occurrences, last 24 hours". */
export function sparklineLabel(range: TimeRange): string {
  if (range.kind === 'absolute') return `Occurrences since ${formatUtcDateTime(range.since)}`;
  const unit = range.unit === 'h' ? 'hour' : 'day';
  return `Occurrences, last ${range.amount === 1 ? unit : `${range.amount} ${unit}s`}`;
}

/** How a priority reads in the list and the filter. */
export const priorityLabels: Record<Issue['priority'], string> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};
