import { mutationOptions, type QueryClient } from '@tanstack/react-query';
import { api, call } from '../client';
import { ApiError } from '../errors';
import { useSessionStore } from '../session-store';
import { forgetSignedOut, rememberSignedOut } from '../signed-out-mark';

/**
 * Signing in and out. Tokens go to the in-memory session store only. Signing out always
 * clears local credentials and cached data, even when the service could not be told.
 */

export const authKeys = {
  all: ['auth'] as const,
  signIn: () => [...authKeys.all, 'sign-in'] as const,
  signOut: () => [...authKeys.all, 'sign-out'] as const,
  signOutEverywhere: () => [...authKeys.all, 'sign-out-everywhere'] as const,
};

export type Credentials = { email: string; password: string };

export async function signIn(credentials: Credentials, queryClient: QueryClient): Promise<void> {
  const tokens = await call(api.POST('/api/auth/login', { body: credentials }));
  // Nothing read under an earlier sign-in is shown to this one.
  queryClient.getQueryCache().clear();
  forgetSignedOut();
  useSessionStore.getState().signedIn(tokens);
}

function forgetLocally(queryClient: QueryClient): void {
  rememberSignedOut();
  useSessionStore.getState().signedOut('signed-out');
  queryClient.getQueryCache().clear();
}

/** Best effort: revoke this sign-in's refresh-token family, then clear the session cookie. */
async function endThisSignIn(): Promise<void> {
  const { refreshToken } = useSessionStore.getState();
  if (refreshToken) {
    await call(api.POST('/api/auth/logout', { body: { refresh_token: refreshToken } })).catch(
      () => undefined,
    );
  }
  await call(api.POST('/api/auth/web/logout')).catch(() => undefined);
}

/** Signs this browser out. Local credentials and the cache are cleared whatever the service says. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await endThisSignIn();
  } finally {
    forgetLocally(queryClient);
  }
}

export type SignOutEverywhereResult =
  | { confirmed: true; revokedBefore: string }
  /** The service did not confirm (lost response, 5xx or a refusal): nothing is known about other sign-ins. */
  | { confirmed: false };

/**
 * Signs out every client of the account (`logout-all`). Only a `200` confirms it. When the
 * response is lost, this browser is still signed out (best effort with the service, always
 * locally), and the result says nothing about other sign-ins.
 */
export async function signOutEverywhere(
  queryClient: QueryClient,
): Promise<SignOutEverywhereResult> {
  let result: SignOutEverywhereResult = { confirmed: false };
  try {
    const body = await call(api.POST('/api/auth/logout-all'));
    result = { confirmed: true, revokedBefore: body.revoked_before };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    await endThisSignIn();
  } finally {
    forgetLocally(queryClient);
  }
  return result;
}

export const authMutations = {
  signIn: () =>
    mutationOptions({
      mutationKey: authKeys.signIn(),
      mutationFn: (credentials: Credentials, { client }) => signIn(credentials, client),
    }),
  signOut: () =>
    mutationOptions({
      mutationKey: authKeys.signOut(),
      mutationFn: (_: void, { client }) => signOut(client),
    }),
  signOutEverywhere: () =>
    mutationOptions({
      mutationKey: authKeys.signOutEverywhere(),
      mutationFn: (_: void, { client }) => signOutEverywhere(client),
    }),
};
