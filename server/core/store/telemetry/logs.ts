import type { LogEvent } from '../../batch';
import type { AttributeFilter, AttributeType } from '../../../domain/read-rules/attribute-filters';
import type { Severity } from '../../../domain/severity';

export interface LogsStore {
  /** The attribute catalog of the logs in scope and range. */
  catalog(q: AttributeCatalogQuery): Promise<AttributeCatalog>;
  /** Matching logs, newest first (occurred_at DESC, id DESC), at most `limit`. */
  list(q: LogListQuery): Promise<LogRecord[]>;
  /**
   * How many logs match the list's filters in each bucket, in the buckets' order: exact, each
   * log counted in every bucket [start, end) that holds its time.
   */
  count(q: LogCountQuery): Promise<number[]>;
  /**
   * `count` of each filter set over the same projects and buckets, in the sets' order: what
   * `count` answers for each, read together where the engine can (alert rules sharing a
   * project and a window are many sets over one range).
   */
  countEach(q: LogCountEachQuery): Promise<number[][]>;
  /** The log with this id in one of the projects, or null. */
  byId(projectIds: string[], id: string): Promise<LogRecord | null>;
  /** The rules matching the given logs of one project, by log id (logs without one are absent). */
  rulesFor(projectId: string, logIds: string[]): Promise<Map<string, LogRule>>;
  /**
   * Sets (or, with null, removes) the rule matching the log's triage key in its project.
   * False when the log does not exist in that project.
   */
  setRule(change: {
    projectId: string;
    logId: string;
    rule: LogRule | null;
    at: number;
    by: string;
  }): Promise<boolean>;
}

/** The triage rule that matches a log: a severity override (null keeps the captured one). */
export type LogRule = { severity: Severity | null; ignored: boolean };

/**
 * A stored log as the read routes return it (the live feed passes its `LogEvent`, a superset).
 * `rule` is the matching triage rule, null or absent when none applies.
 */
export type LogRecord = Omit<LogEvent, 'kind' | 'attributesJson' | 'bytes'> & {
  projectId: string;
  rule?: LogRule | null;
};

/** Triage status of the log list: `active` (default), `ignored`, or `all`. */
export type LogStatus = 'active' | 'ignored' | 'all';

/** A validated log list query; every filter is already checked by the read rules. */
export type LogListQuery = {
  /** Readable projects to read; empty reads nothing. */
  projectIds: string[];
  /** Compared with effective severity (after rules). */
  severity: Severity | null;
  /** Case-insensitive substring of the message. */
  search: string | null;
  traceId: string | null;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  status: LogStatus;
  attributeFilters: AttributeFilter[];
  /** Epoch ms, inclusive. */
  since: number | null;
  /** Epoch ms, exclusive. */
  until: number | null;
  /** Rows strictly after this position in newest-first order. */
  after: { time: number; id: string } | null;
  limit: number;
};

/** A time bucket of a count: [start, end) in epoch ms. */
export type LogCountBucket = { start: number; end: number };

/** The filters of a log list (not its range, cursor or size) over several buckets at once. */
export type LogCountQuery = Omit<LogListQuery, 'since' | 'until' | 'after' | 'limit'> & {
  buckets: LogCountBucket[];
};

/** The filters of one count (its projects and buckets are the query's). */
export type LogCountFilters = Omit<LogCountQuery, 'projectIds' | 'buckets'>;

/** Several counts over the same projects and buckets. */
export type LogCountEachQuery = {
  projectIds: string[];
  buckets: LogCountBucket[];
  filters: LogCountFilters[];
};

/** `GET /api/logs/attributes`, validated: the range is [since, ∞). */
export type AttributeCatalogQuery = {
  projectIds: string[];
  since: number;
  /** Captured severity (not effective). */
  severity: Severity | null;
  type: AttributeType | null;
  /** Case-insensitive path substring. */
  search: string | null;
  /** Entries strictly after this one in catalog order. */
  after: { observedCount: number; path: string; type: AttributeType } | null;
  limit: number;
};

export type CatalogEntry = {
  path: string;
  type: AttributeType;
  observedCount: number;
  lastSeenAt: number;
};

export type AttributeCatalog = {
  /** Most observed first, then path, then type. */
  attributes: CatalogEntry[];
  hasMore: boolean;
  /** Over the scope, range and severity only (never `type`, `search` or the cursor). */
  coverage: {
    total_logs: number;
    indexed_logs: number;
    partially_indexed_logs: number;
    unindexed_logs: number;
    index_limits: { max_depth: number; max_attributes_per_log: number; max_string_bytes: number };
  };
};
