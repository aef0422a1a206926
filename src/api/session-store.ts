import { create } from 'zustand';

/**
 * The sign-in of this tab. Tokens live in memory only (never storage, never a URL): a reload
 * restores the sign-in through the HttpOnly `svc_session` cookie instead.
 */
export type SessionStatus = 'unknown' | 'signed-in' | 'signed-out';

export type SignedOutReason = 'signed-out' | 'expired' | 'never-signed-in';

type SessionState = {
  status: SessionStatus;
  accessToken: string | null;
  refreshToken: string | null;
  signedOutReason: SignedOutReason | null;
  signedIn: (tokens: { access_token: string; refresh_token: string }) => void;
  signedOut: (reason: SignedOutReason) => void;
};

export const useSessionStore = create<SessionState>()((set) => ({
  status: 'unknown',
  accessToken: null,
  refreshToken: null,
  signedOutReason: null,
  signedIn: (tokens) =>
    set({
      status: 'signed-in',
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      signedOutReason: null,
    }),
  signedOut: (reason) =>
    set({ status: 'signed-out', accessToken: null, refreshToken: null, signedOutReason: reason }),
}));

export const useSessionStatus = () => useSessionStore((s) => s.status);
export const useSignedOutReason = () => useSessionStore((s) => s.signedOutReason);
