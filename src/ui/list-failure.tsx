import { ApiError } from '../api/errors';
import { Button } from './button';
import { ErrorState } from './error-state';
import styles from './list-failure.module.css';
import { StateFrame } from './state-frame';

/**
 * A list read that failed. A refused request (422) is fixed by changing the filters, not by
 * trying again: it offers "Clear filters" (when some narrow the list) instead of a retry.
 */
export function ListFailure({
  error,
  retry,
  onClearFilters,
}: {
  error: unknown;
  retry: () => void;
  /** Clears the page's narrowing filters; absent when none are set. */
  onClearFilters?: (() => void) | undefined;
}) {
  const refused = error instanceof ApiError && error.status === 422;
  return (
    <StateFrame>
      <ErrorState error={error} reset={refused ? undefined : retry} />
      {refused && onClearFilters && (
        <div className={styles.actions}>
          <Button size="sm" onClick={onClearFilters}>
            Clear filters
          </Button>
        </div>
      )}
    </StateFrame>
  );
}
