import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { restoreSession } from './session-restore';
import { useSessionStore } from './session-store';

/**
 * Makes sure this tab is signed in before an authenticated page loads. On the first page of
 * a visit the status is `unknown`: the HttpOnly `svc_session` cookie is exchanged for tokens
 * (a reload keeps the sign-in without storing tokens). Otherwise the store decides. When not
 * signed in, redirects to the sign-in page, which comes back to `location.href` afterwards.
 * After a deliberate sign-out in this browser the cookie is not used, even if the service
 * never heard of the sign-out.
 */
export async function ensureSession(location: { href: string }): Promise<void> {
  await restoreSession();
  const { status, signedOutReason } = useSessionStore.getState();
  if (status === 'signed-in') return;
  throw redirect({
    to: '/sign-in',
    search: {
      redirect: location.href,
      ...(signedOutReason === 'expired' ? { reason: 'expired' as const } : {}),
    },
  });
}

/**
 * Watches for a sign-in that ends on its own (a 401 the refresh could not fix): runs
 * `onExpired` (which navigates to the sign-in page) and then clears the query cache, so no
 * data of the ended sign-in stays in memory. Returns the unsubscribe function.
 */
export function watchSessionEnd(
  queryClient: QueryClient,
  onExpired: () => Promise<void> | void,
): () => void {
  return useSessionStore.subscribe((state, previous) => {
    if (previous.status !== 'signed-in') return;
    if (state.status !== 'signed-out' || state.signedOutReason !== 'expired') return;
    void Promise.resolve()
      .then(onExpired)
      .catch(() => undefined)
      .finally(() => queryClient.getQueryCache().clear());
  });
}
