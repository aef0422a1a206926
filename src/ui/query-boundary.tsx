import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { CatchBoundary } from '@tanstack/react-router';
import { Suspense, type ReactNode } from 'react';

/**
 * Suspense and an error boundary around a part that reads queries with `useSuspenseQuery`:
 * `pending` while loading, `renderError` when a read fails (its `retry` clears the failed
 * queries and renders the part again). A new `resetKey` (other filters, another cursor) also
 * clears the error.
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
          errorComponent={({ error, reset: resetBoundary }) =>
            renderError(error, () => {
              reset();
              resetBoundary();
            })
          }
        >
          <Suspense fallback={pending}>{children}</Suspense>
        </CatchBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}
