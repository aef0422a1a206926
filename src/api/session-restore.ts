import { refreshSession } from './client';
import { useSessionStore } from './session-store';
import { wasSignedOut } from './signed-out-mark';

let restoring: Promise<void> | null = null;

/**
 * On the first page of a visit the sign-in is `unknown`: the HttpOnly `svc_session` cookie is
 * exchanged for tokens (a reload keeps the sign-in without storing tokens). Afterwards the
 * status is known either way. One attempt at a time; after a deliberate sign-out in this
 * browser the cookie is not used, even if the service never heard of the sign-out.
 */
export function restoreSession(): Promise<void> {
  if (useSessionStore.getState().status !== 'unknown') return Promise.resolve();
  restoring ??= (async () => {
    const restored = !wasSignedOut() && (await refreshSession());
    if (!restored && useSessionStore.getState().status !== 'signed-in') {
      useSessionStore.getState().signedOut('never-signed-in');
    }
  })().finally(() => {
    restoring = null;
  });
  return restoring;
}
