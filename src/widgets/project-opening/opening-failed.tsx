import { ErrorState } from '../../ui/error-state';

/**
 * The reads that count each project all failed (or failed where nothing else was counted), so
 * no project could be opened: what happened, and a retry of the failed reads. Never told as
 * "no project has anything".
 */
export function OpeningFailed({
  reads,
}: {
  reads: readonly { isError: boolean; error: unknown; refetch: () => unknown }[];
}) {
  const failed = reads.filter((r) => r.isError);
  return (
    <ErrorState
      error={failed[0]?.error}
      reset={() => {
        for (const r of failed) void r.refetch();
      }}
      compact
    />
  );
}
