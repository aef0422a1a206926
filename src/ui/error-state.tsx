import { ApiError, failureTitle, knownAction } from '../api/errors';
import { Button, buttonClass } from './button';
import styles from './error-state.module.css';
import { AlertIcon, OfflineIcon } from './icons';

/**
 * What a failed read or action shows. Never an empty result: the failure, its HTTP status
 * and `code` (when the service sent the envelope), the service's `next` as guidance, and
 * what the console can do about it (retry, sign in, open a page it knows).
 */
export function ErrorState({
  error,
  reset,
  canOpen = () => false,
  compact = false,
}: {
  error: unknown;
  /** Runs the failed work again; shows a "Try again" button when given. */
  reset?: () => void;
  /** Whether the console has a page at this path (only existing pages are linked). */
  canOpen?: (path: string) => boolean;
  compact?: boolean;
}) {
  const apiError = error instanceof ApiError ? error : null;
  // A page's code is fetched from the service too: when that fails, the service is as
  // unreachable as when a read fails.
  const network = (apiError?.isNetworkFailure ?? false) || isModuleLoadFailure(error);
  const title = apiError
    ? failureTitle(apiError)
    : network
      ? 'The service could not be reached'
      : 'Something went wrong';
  const action = knownAction(apiError?.nextAction);
  const showSignIn = apiError?.status === 401 || action?.kind === 'sign-in';
  const openPath = action?.kind === 'open' && canOpen(action.to) ? action.to : null;
  const Icon = network ? OfflineIcon : AlertIcon;

  return (
    <section className={`${styles.state} ${compact ? styles.compact : ''}`} role="alert">
      <Icon className={styles.icon} size={20} />
      <div className={styles.body}>
        <h2 className={styles.title}>{title}</h2>
        {apiError && !network && (
          <p className={styles.meta}>
            HTTP {apiError.status}
            {apiError.code !== undefined && (
              <>
                {' · '}
                <code>{apiError.code}</code>
              </>
            )}
          </p>
        )}
        {network ? (
          <p className={styles.text}>
            Check that the Lookout service is running and that this device can reach it, then try
            again.
          </p>
        ) : apiError ? (
          apiError.code !== undefined && <p className={styles.text}>{apiError.message}</p>
        ) : (
          <p className={styles.text}>
            The page could not be shown. Try again; if it keeps happening, reload the page.
          </p>
        )}
        {apiError?.next && (
          <p className={styles.next}>
            <span className={styles.nextLabel}>What to do: </span>
            {apiError.next}
          </p>
        )}
        {(reset || showSignIn || openPath) && (
          <div className={styles.actions}>
            {reset && (
              <Button variant={showSignIn ? 'secondary' : 'primary'} size="sm" onClick={reset}>
                Try again
              </Button>
            )}
            {showSignIn && (
              <a className={buttonClass('primary', 'sm')} href={signInHref()}>
                Sign in
              </a>
            )}
            {openPath && (
              <a className={buttonClass('secondary', 'sm')} href={openPath}>
                {openPath === '/plan' ? 'Open plan' : 'Open usage'}
              </a>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * A route's code that could not be fetched: the import failures of Chromium, Firefox and
 * Safari, and Vite's own when a route chunk's stylesheet could not be loaded first.
 */
function isModuleLoadFailure(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|importing a module script failed|unable to preload css/i.test(
      error.message,
    )
  );
}

function signInHref(): string {
  const here = `${window.location.pathname}${window.location.search}`;
  if (!here.startsWith('/') || here.startsWith('/sign-in')) return '/sign-in';
  return `/sign-in?redirect=${encodeURIComponent(here)}`;
}
