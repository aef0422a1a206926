import type { ActionRecord } from './actions';
import type { OccurrenceRecord } from './occurrences';
import type { ReleaseRow } from './releases';
import type { SpanRecord, TraceScope } from './traces';

/**
 * The reads only investigation bundles and correction verification need. Each answers a
 * bounded amount (a `limit`, or a count), so a bundle never reads a whole table into memory.
 */
export interface InvestigationsStore {
  /** The occurrence of the issue with this id, or null. */
  occurrence(issueId: string, occurrenceId: string): Promise<OccurrenceRecord | null>;
  /** The first, latest, or latest occurrence having a trace id and/or a stack trace. */
  pickOccurrence(issueId: string, pick: OccurrencePick): Promise<OccurrenceRecord | null>;
  /** Counts and the first occurrence of a window. */
  occurrenceWindow(q: OccurrenceWindowQuery): Promise<OccurrenceWindow>;
  /** One span of a trace in scope (the earliest when an id repeats), or null. */
  span(scope: TraceScope, spanId: string): Promise<SpanRecord | null>;
  /** The action with this id in one of the projects, or null. */
  action(projectIds: string[], actionId: string): Promise<ActionRecord | null>;
  /**
   * Actions of the same project and session within `windowMs` of the action, up to `limit`
   * on each side, in time order (the action itself excluded).
   */
  sessionNeighbours(
    action: ActionRecord,
    windowMs: number,
    limit: number,
  ): Promise<{ before: ActionRecord[]; after: ActionRecord[] }>;
  /** Issues with occurrences in the release (optionally one environment and service), most first. */
  releaseIssues(
    q: {
      projectId: string;
      release: string;
      environment: string | null;
      serviceName: string | null;
    },
    limit: number,
  ): Promise<{ issues: ReleaseIssueCount[]; total: number }>;
  /** Release rows of one project with the given exact filters (release optional). */
  releaseRows(q: {
    projectId: string;
    release: string | null;
    environment: string | null;
    serviceName: string | null;
    /** Rows seen in `[from, to)` only (last seen at or after `from`, first seen before `to`). */
    from: number | null;
    to: number | null;
    limit: number;
  }): Promise<{ rows: ReleaseRow[]; total: number }>;
}

/** Which stored occurrence an issue investigation picks (see `pickOccurrence`). */
export type OccurrencePick =
  'first' | 'latest' | 'latest_with_trace_and_stack' | 'latest_with_stack';

/** Occurrences of one issue in `[from, to)` of one environment and service. */
export type OccurrenceWindowQuery = {
  issueId: string;
  environment: string;
  serviceName: string;
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
};

export type OccurrenceWindow = {
  count: number;
  /** The earliest occurrence in the window. */
  first: OccurrenceRecord | null;
  /** Occurrences per release, most first, then release (every release of the window). */
  releases: { release: string; occurrences: number }[];
};

/** An issue with its occurrences in one release row (release investigation). */
export type ReleaseIssueCount = {
  issueId: string;
  title: string;
  status: string;
  occurrences: number;
  lastSeenAt: number;
};
