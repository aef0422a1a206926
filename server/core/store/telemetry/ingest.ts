import type { ActionEvent, Batch, IssueEvent, LogEvent, MetricEvent, SpanEvent } from '../../batch';
import type { LimitName } from '../../../domain/usage';

/**
 * Ingest writes. One batch is one transaction on today's engines, and it also writes what the
 * state tier reads: the issue groups of new occurrences (with their activity on a regression)
 * and the usage counters the quota is checked against. An engine of its own for telemetry
 * has to take those writes apart from the telemetry it stores.
 */
export interface IngestStore {
  /**
   * Stores the new items of a batch in one transaction. Ids already accepted for the
   * project are counted, not stored again. When the new items would pass a quota,
   * throws QuotaExceededError and stores nothing.
   */
  accept(batch: Batch, receivedAt: number, quota: QuotaContext): Promise<AcceptResult>;
  /**
   * A request for the project is being read and its batch may follow: a store that writes
   * requests in groups waits a moment for it (a hint, never a promise). The returned function
   * says the request is over. Absent on stores that write each batch alone.
   */
  arriving?(projectId: string): () => void;
}

/** The items of a batch not accepted before: what an ingest really stores. */
export type NewItems = {
  issues: IssueEvent[];
  /** The issue group each of `issues` joined, in the same order. */
  issueGroups: string[];
  logs: LogEvent[];
  spans: SpanEvent[];
  actions: ActionEvent[];
  metrics: MetricEvent[];
};

/** Per-stream counts of what a batch stored (items already accepted are not in them). */
export type AcceptCounts = {
  issues: number;
  logs: number;
  trace_spans: number;
  actions: number;
  metrics: number;
};

export type AcceptResult = {
  counts: AcceptCounts;
  alreadyAccepted: number;
  contextUpdated: boolean;
  /** The items stored by this call, in request order (for the live feed). */
  stored: Batch;
  /** Issue groups that received a new occurrence. */
  issueIds: string[];
};

/** Raised inside `accept` when the new items would pass a quota; nothing is stored. */
export class QuotaExceededError extends Error {
  constructor(readonly limit: LimitName) {
    super(`quota ${limit} exceeded`);
  }
}

export type QuotaContext = {
  /** The account whose allowance the project draws on (the owner of its organization). */
  accountId: string;
  /** Start of the current usage period (epoch ms, a UTC day). */
  periodStart: number;
  quotas: Record<LimitName, number>;
  /** Days the plan keeps telemetry (recorded with each row for retention). */
  retentionDays?: number;
};
