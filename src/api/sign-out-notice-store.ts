import { create } from 'zustand';

/**
 * What the sign-in page says after "Sign out everywhere": the `revoked_before` time the
 * service confirmed. Kept in memory (never in the URL); lost on reload, when the page falls
 * back to a message without the time.
 */
type SignOutNoticeState = {
  revokedBefore: string | null;
  signedOutEverywhere: (revokedBefore: string) => void;
  noticeShown: () => void;
};

export const useSignOutNoticeStore = create<SignOutNoticeState>()((set) => ({
  revokedBefore: null,
  signedOutEverywhere: (revokedBefore) => set({ revokedBefore }),
  noticeShown: () => set({ revokedBefore: null }),
}));

export const useRevokedBefore = () => useSignOutNoticeStore((s) => s.revokedBefore);
