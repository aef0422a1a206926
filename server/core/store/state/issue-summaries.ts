/**
 * Status and latest occurrence's title of issue groups, by id (those that exist): what a
 * telemetry read that counts occurrences per issue shows beside its counts.
 */
export type IssueSummaries = (
  issueIds: readonly string[],
) => Promise<Map<string, { status: string; title: string }>>;
