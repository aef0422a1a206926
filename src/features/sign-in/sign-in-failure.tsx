import { ApiError, failureTitle } from '../../api/errors';
import { Callout } from '../../ui/callout';
import styles from './sign-in.module.css';

/**
 * Why signing in failed. The service's `error` is shown as the message and its `next` as
 * guidance (shown, never parsed); a failure without the envelope shows its HTTP status.
 */
export function SignInFailure({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.isNetworkFailure) {
    return (
      <Callout tone="danger" role="alert" title="The service could not be reached">
        Check that the Lookout service is running and that this device is online, then try again.
      </Callout>
    );
  }
  if (error instanceof ApiError && error.code !== undefined) {
    return (
      <Callout
        tone="danger"
        role="alert"
        title={<span className={styles.sentence}>{error.message}</span>}
      >
        {error.next && <p>{error.next}</p>}
      </Callout>
    );
  }
  if (error instanceof ApiError) {
    return (
      <Callout tone="danger" role="alert" title={failureTitle(error)}>
        <p>HTTP {error.status}. Try again in a moment.</p>
      </Callout>
    );
  }
  return (
    <Callout tone="danger" role="alert" title="Signing in failed">
      <p>Try again; if it keeps happening, reload the page.</p>
    </Callout>
  );
}
