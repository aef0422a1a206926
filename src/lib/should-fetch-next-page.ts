/** What a paged list knows about its next page. */
export type NextPageStatus = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  error: unknown;
};

/**
 * Whether a scrolled list asks for its next page: there is one, none is on its way, the last
 * attempt did not fail (a failure waits for "Try again"), and the last row in view is within
 * `prefetchRows` of the end of what is loaded.
 */
export function shouldFetchNextPage(
  status: NextPageStatus,
  lastVisibleIndex: number,
  loadedRows: number,
  prefetchRows: number,
): boolean {
  if (!status.hasNextPage || status.isFetchingNextPage || status.error) return false;
  return lastVisibleIndex >= loadedRows - prefetchRows;
}
