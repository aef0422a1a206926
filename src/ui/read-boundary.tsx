import type { ReactNode } from 'react';
import { ApiError } from '../api/errors';
import { ErrorState } from './error-state';
import { PendingState } from './pending-state';
import { QueryBoundary } from './query-boundary';

/**
 * Loading and failure of one part's reads. A refused request (422) shows the service's error
 * and `next` guidance without a retry: sending it again would be refused again.
 */
export function ReadBoundary({
  resetKey,
  label,
  children,
}: {
  resetKey: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <QueryBoundary
      resetKey={resetKey}
      pending={<PendingState label={label} />}
      renderError={(error, retry) => (
        <ErrorState
          error={error}
          reset={error instanceof ApiError && error.status === 422 ? undefined : retry}
          compact
        />
      )}
    >
      {children}
    </QueryBoundary>
  );
}
