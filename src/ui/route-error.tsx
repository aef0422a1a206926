import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ErrorState } from './error-state';

/**
 * The router's error component: the failure of a loader or a suspense query, with
 * "Try again" re-running the route's loaders and queries.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();

  useEffect(() => {
    // Let suspense queries of this route fetch again on the next render.
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);

  return (
    <ErrorState
      error={error}
      reset={() => {
        reset();
        void router.invalidate();
      }}
      canOpen={(path) => path in router.routesByPath}
    />
  );
}
