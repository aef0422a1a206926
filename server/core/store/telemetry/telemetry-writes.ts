import type { NewItems } from './ingest';

/** The kinds of telemetry item, each with ids of its own per project. */
export type ItemKind = 'issue' | 'log' | 'span' | 'action' | 'metric';

export type IdsByKind = Record<ItemKind, readonly string[]>;

/**
 * The telemetry tier's part of a journaled ingest (see state/ingest-commits.ts): rows written
 * under a batch id, found again by id, and removed by batch.
 */
export interface TelemetryWrites {
  /**
   * Of these ids, those the project already holds, by kind. Rows of the batches in `except`
   * (written, then neither committed nor yet removed) do not count.
   */
  storedIds(projectId: string, ids: IdsByKind, except: ReadonlySet<string>): Promise<IdsByKind>;
  /**
   * Writes the items as batch `batchId`; writing the same batch again (a retry) adds nothing.
   * The order of arrival given to each issue occurrence, in order.
   */
  write(w: BatchWrite): Promise<{ occurrenceSeqs: number[] }>;
  /**
   * Writes several batches of one moment together (a group commit: one insert per table
   * instead of one per batch), each row still under its own batch's id, so each batch is
   * removed alone; writing the same group again (a retry) adds nothing.
   */
  writeGroup(batches: readonly BatchWrite[]): Promise<void>;
  /** Removes every row these batches wrote, and their part of the rollups. */
  remove(batchIds: readonly string[]): Promise<void>;
  /** The batches that wrote rows received at or after `since` (epoch ms). */
  batchesSince(since: number): Promise<string[]>;
}

/** One batch's new items as the telemetry tier writes them. */
export type BatchWrite = {
  batchId: string;
  projectId: string;
  receivedAt: number;
  retentionDays: number;
  items: NewItems;
};
