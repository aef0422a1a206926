import { ApiError, failureTitle } from '../api/errors';
import { Callout } from './callout';
import styles from './write-failure.module.css';

/**
 * Why a create or change failed, inline in its form: the service's `error` and `next`
 * (shown, never parsed), the HTTP status and `code`. When the outcome is unknown (no answer,
 * 5xx), says so, and whether sending again is safe.
 */
export function WriteFailure({
  error,
  idempotent,
  unknownOutcome: unknownText = 'It may or may not have been done.',
}: {
  error: unknown;
  /** Whether sending the same submission again is deduplicated by the service. */
  idempotent: boolean;
  /** What is unknown when there was no answer, e.g. "The project may or may not have been created." */
  unknownOutcome?: string;
}) {
  const apiError = error instanceof ApiError ? error : null;
  const unknownOutcome = apiError === null || apiError.isNetworkFailure || apiError.status >= 500;
  const title = apiError
    ? apiError.code !== undefined && !unknownOutcome
      ? apiError.message
      : failureTitle(apiError)
    : 'Something went wrong';
  return (
    <Callout tone="danger" role="alert" title={<span className={styles.sentence}>{title}</span>}>
      {apiError?.next && <p>{apiError.next}</p>}
      {unknownOutcome && (
        <p>
          {unknownText}{' '}
          {idempotent
            ? 'Submitting again is safe: it will not create a duplicate.'
            : 'Check before trying again.'}
        </p>
      )}
      {apiError && !apiError.isNetworkFailure && (
        <p className={styles.meta}>
          HTTP {apiError.status}
          {apiError.code !== undefined && <> · {apiError.code}</>}
        </p>
      )}
    </Callout>
  );
}
