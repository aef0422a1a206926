import './api/restore-session-early';
import './lib/zod-without-eval';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './api/query-client';
import { watchSessionEnd } from './api/session';
import { listenForWindowFocus } from './api/window-focus';
import { createAppRouter } from './router';
import './ui/tokens.css';
import './ui/global.css';

const queryClient = createQueryClient();
listenForWindowFocus();
const router = createAppRouter(queryClient);

// A sign-in that ends on its own (a 401 the refresh could not fix) goes back to sign-in.
watchSessionEnd(queryClient, async () => {
  const { pathname, href } = router.state.location;
  if (pathname === '/sign-in') return;
  await router.navigate({ to: '/sign-in', search: { reason: 'expired', redirect: href } });
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
