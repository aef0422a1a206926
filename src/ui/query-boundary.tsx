import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { CatchBoundary } from '@tanstack/react-router';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { useReconnects } from '../live/live-store';

/**
 * Suspense and an error boundary around a part that reads queries with `useSuspenseQuery`:
 * `pending` while loading, `renderError` when a read fails (its `retry` clears the failed
 * queries and renders the part again). A new `resetKey` (other filters, another cursor) also
 * clears the error, and so does the live feed coming back: a reconnect means the service
 * answers again, so a read that failed meanwhile is tried again by itself.
 */
export function QueryBoundary({
  resetKey,
  pending,
  renderError,
  children,
}: {
  resetKey: string;
  pending: ReactNode;
  renderError: (error: unknown, retry: () => void) => ReactNode;
  children: ReactNode;
}) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <CatchBoundary
          getResetKey={() => resetKey}
          errorComponent={({ error, reset: resetBoundary }) => {
            const retry = () => {
              reset();
              resetBoundary();
            };
            return (
              <>
                {renderError(error, retry)}
                <RetryOnReconnect retry={retry} />
              </>
            );
          }}
        >
          <Suspense fallback={pending}>{children}</Suspense>
        </CatchBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}

/** Runs `retry` once the live feed has reconnected since the failure was shown. */
function RetryOnReconnect({ retry }: { retry: () => void }) {
  const reconnects = useReconnects();
  const [atFailure] = useState(reconnects);
  useEffect(() => {
    if (reconnects !== atFailure) retry();
  }, [reconnects, atFailure, retry]);
  return null;
}
