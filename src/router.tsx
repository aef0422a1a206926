import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import type { ScopeBoundKeys } from './lib/scope-change';
import { routeTree } from './routeTree.gen';
import { NotFound } from './ui/not-found';
import { PendingState } from './ui/pending-state';
import { RouteError } from './ui/route-error';

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    // React Query decides freshness; the router always asks it.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    defaultPendingComponent: () => <PendingState />,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface StaticDataRouteOption {
    /** The page's search keys a change of the header's scope drops (see `scope-change.ts`). */
    scopeBound?: ScopeBoundKeys;
  }
}
