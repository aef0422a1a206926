import type { Severity } from '../../../domain/severity';

/** Reads of the occurrences stored for issue groups. */
export interface OccurrencesStore {
  /**
   * Of `issueIds`, those in one of `projectIds` (`readable`, in no particular order), and
   * their stored occurrences per UTC hour from `fromHour` (inclusive) to `toHour` (exclusive);
   * hours without occurrences are absent.
   */
  hours(q: {
    projectIds: string[];
    issueIds: string[];
    fromHour: number;
    toHour: number;
  }): Promise<{
    readable: string[];
    hours: { issueId: string; hour: number; occurrences: number }[];
  }>;
  /** Occurrences of an issue, newest first by (occurred_at, id), strictly after `after`. */
  list(
    issueId: string,
    after: { time: number; id: string } | null,
    limit: number,
  ): Promise<OccurrenceRecord[]>;
}

/** One stored occurrence of an issue, with its own context. */
export type OccurrenceRecord = {
  id: string;
  issueId: string;
  projectId: string;
  occurredAt: number;
  severity: Severity;
  title: string;
  message: string;
  exception: { type: string; value?: string } | null;
  stackTrace: string | null;
  attributes: Record<string, unknown>;
  environment: string;
  release: string;
  serviceName: string;
  traceId: string | null;
  spanId: string | null;
  breadcrumbs: unknown[] | null;
  breadcrumbsTruncated: boolean;
  sdk: { name: string; version: string };
};
