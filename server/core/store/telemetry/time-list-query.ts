/** A time-ordered telemetry list (actions, metric samples), validated. */
export type TimeListQuery = {
  projectIds: string[];
  name: string | null;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  /** Epoch ms, inclusive. */
  since: number | null;
  /** Rows strictly after this position in newest-first (occurred_at, id) order. */
  after: { time: number; id: string } | null;
  limit: number;
};
