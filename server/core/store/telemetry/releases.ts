export interface ReleasesStore {
  /** Matching release rows, newest first, at most `limit`. */
  list(q: ReleaseListQuery): Promise<ReleaseRow[]>;
}

/** `GET /api/telemetry/releases`, validated. */
export type ReleaseListQuery = {
  projectIds: string[];
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  /** Epoch ms, inclusive, compared with the row's `last_seen_at`. */
  since: number | null;
  /** Rows strictly after this position in (last_seen_at, project, release, environment, service) descending order. */
  after: (ReleaseKey & { time: number }) | null;
  limit: number;
};

export type ReleaseKey = {
  projectId: string;
  release: string;
  environment: string;
  serviceName: string;
};

export type ReleaseRow = ReleaseKey & {
  issueCount: number;
  logCount: number;
  traceSpanCount: number;
  actionCount: number;
  metricCount: number;
  traceCount: number;
  errorTraceCount: number;
  firstSeenAt: number;
  lastSeenAt: number;
};
