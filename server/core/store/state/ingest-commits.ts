import type { ActionEvent, Batch, IssueEvent, LogEvent, MetricEvent, SpanEvent } from '../../batch';
import type { LimitName, UsageByStream } from '../../../domain/usage';
import type { AcceptResult, QuotaContext } from '../telemetry/ingest';

/**
 * The state engine's part of an ingest whose telemetry lives in another engine (ClickHouse). Two
 * stores cannot share a transaction, so a batch is journaled: `begin` records it before any
 * row is written there, those rows carry its id, and `commit` makes it count (usage, issue
 * groups, contexts, the kinds the state engine still keeps) and ends the entry in one state
 * transaction. An entry still begun after a crash names rows nobody acknowledged: they are
 * removed and the entry ended (store/journaled-ingest.ts).
 */
export interface IngestCommitStore {
  /**
   * Runs `fn` while no other process sharing this store runs one for the same project (a
   * batch's whole journaled write, or the removal of an unfinished one). Absent where one
   * process is the store's only writer (SQLite).
   */
  exclusive?<T>(projectId: string, fn: () => Promise<T>): Promise<T>;
  /** The first quota `added` would pass, read outside any transaction (a cheap early no). */
  quotaExceeded(quota: QuotaContext, added: UsageByStream): Promise<LimitName | null>;
  /**
   * The ids of the project's issue groups with these fingerprints (those that exist): an
   * occurrence written elsewhere carries its group's id before the commit creates the group.
   */
  groupIds(projectId: string, fingerprints: readonly string[]): Promise<Map<string, string>>;
  /** Journals a batch about to be written to the telemetry engine. */
  begin(entry: JournalEntry): Promise<void>;
  /**
   * In one transaction: stores the batch's items of the kinds not kept elsewhere (skipping
   * ids already accepted), counts the items `elsewhere` (written there as `batchId`) with them, checks the quota
   * against what is really added (QuotaExceededError: nothing written, the entry stays
   * begun), and ends the journal entry.
   */
  commit(c: IngestCommit): Promise<AcceptResult>;
  /** Whether the entry is still begun (after a commit whose answer was lost: not = committed). */
  isBegun(batchId: string): Promise<boolean>;
  /** Entries begun and never committed or ended, oldest first. */
  unfinished(): Promise<JournalEntry[]>;
  /** Ends a begun entry whose telemetry rows are gone. */
  end(batchId: string): Promise<void>;
  /**
   * After a restore (a telemetry copy newer than the state copy): from when on the ledger of
   * committed batches is complete, else null (no check pending). See store/backup/.
   */
  sweepPending(): Promise<{ completeSince: number } | null>;
  /** Of these batches, those committed here. */
  committedAmong(batchIds: readonly string[]): Promise<Set<string>>;
  /** The check after a restore is done. */
  sweepDone(): Promise<void>;
}

export type JournalEntry = { batchId: string; projectId: string; startedAt: number };

export type IngestCommit = {
  /** Null when no row was written elsewhere (no new item there): nothing to end. */
  batchId: string | null;
  batch: Batch;
  receivedAt: number;
  quota: QuotaContext;
  elsewhere: ItemsElsewhere;
};

/**
 * The kinds another engine keeps, each with the batch's new items as written there (a kind
 * absent here is stored by the state engine itself).
 */
export type ItemsElsewhere = {
  /**
   * New occurrences, each with the id of the group it joins: found by fingerprint, or chosen
   * for a group the commit creates (batches of a project are journaled one at a time).
   */
  issues?: GroupedOccurrence[];
  logs?: LogEvent[];
  spans?: SpanEvent[];
  actions?: ActionEvent[];
  metrics?: MetricEvent[];
};

export type GroupedOccurrence = IssueEvent & { groupId: string };

/** The kinds that can be kept elsewhere, by their `ItemsElsewhere` field. */
export type KindElsewhere = keyof ItemsElsewhere;
