import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { StandalonePage } from '../ui/standalone-page';
import { NotFound } from '../ui/not-found';
import '../ui/application-text.css';

export type RouterContext = { queryClient: QueryClient };

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: () => (
    <StandalonePage>
      <NotFound />
    </StandalonePage>
  ),
});
