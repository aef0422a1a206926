import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { RefObject } from 'react';
import { authMutations } from '../../api/queries/auth';
import { useSignOutNoticeStore } from '../../api/sign-out-notice-store';
import { ConfirmDialog } from '../../ui/confirm-dialog';

/**
 * Confirms "Sign out everywhere" (logout-all). Afterwards the sign-in page says what is
 * known: the revocation time when the service confirmed it, and otherwise only that this
 * browser is signed out.
 */
export function SignOutEverywhereDialog({
  open,
  onOpenChange,
  returnFocusRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on close (the menu item that opened it is gone by then). */
  returnFocusRef?: RefObject<HTMLElement | null>;
}) {
  const navigate = useNavigate();
  const signedOutEverywhere = useSignOutNoticeStore((s) => s.signedOutEverywhere);
  const mutation = useMutation(authMutations.signOutEverywhere());

  const confirm = () =>
    mutation.mutate(undefined, {
      onSuccess: (result) => {
        if (result.confirmed) {
          signedOutEverywhere(result.revokedBefore);
          void navigate({ to: '/sign-in', search: { reason: 'everywhere' } });
        } else {
          void navigate({ to: '/sign-in', search: { reason: 'everywhere-unconfirmed' } });
        }
      },
      onError: () =>
        void navigate({ to: '/sign-in', search: { reason: 'everywhere-unconfirmed' } }),
    });

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      {...(returnFocusRef ? { returnFocusRef } : {})}
      title="Sign out everywhere?"
      description="This signs out every browser, app and token of your account, including this one. Everyone using your account will need to sign in again. Ingest keys keep working."
      confirmLabel="Sign out everywhere"
      pendingLabel="Signing out everywhere…"
      pending={mutation.isPending}
      onConfirm={confirm}
    />
  );
}
