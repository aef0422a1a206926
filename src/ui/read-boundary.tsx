import type { ReactNode } from 'react';
import { ApiError } from '../api/errors';
import { AfterFirstPaint } from './after-first-paint';
import { ErrorState } from './error-state';
import { PendingState } from './pending-state';
import { QueryBoundary } from './query-boundary';

/**
 * Loading and failure of one part's reads. A refused request (422) shows the service's error
 * and `next` guidance without a retry: sending it again would be refused again. A part below
 * the fold is `belowFold`: it renders after the parts above it were painted.
 */
export function ReadBoundary({
  resetKey,
  label,
  belowFold = false,
  children,
}: {
  resetKey: string;
  label: string;
  belowFold?: boolean;
  children: ReactNode;
}) {
  const pending = <PendingState label={label} />;
  return (
    <QueryBoundary
      resetKey={resetKey}
      pending={pending}
      renderError={(error, retry) => (
        <ErrorState
          error={error}
          reset={error instanceof ApiError && error.status === 422 ? undefined : retry}
          compact
        />
      )}
    >
      {belowFold ? <AfterFirstPaint fallback={pending}>{children}</AfterFirstPaint> : children}
    </QueryBoundary>
  );
}
