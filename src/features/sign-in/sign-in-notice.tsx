import { useRevokedBefore } from '../../api/sign-out-notice-store';
import { formatUtcDateTime } from '../../lib/format-time';
import { Callout } from '../../ui/callout';
import type { SignInReason } from './sign-in-reason';

/** Why the person sees the sign-in page, when there is something to say. */
export function SignInNotice({ reason }: { reason: SignInReason | undefined }) {
  const revokedBefore = useRevokedBefore();

  switch (reason) {
    case undefined:
      return null;
    case 'expired':
      return (
        <Callout tone="info" role="status">
          Your session has ended. Sign in again.
        </Callout>
      );
    case 'signed-out':
      return (
        <Callout tone="success" role="status">
          You are signed out.
        </Callout>
      );
    case 'everywhere':
      return (
        <Callout tone="success" role="status" title="Signed out everywhere">
          {revokedBefore
            ? `All sign-ins of your account up to ${formatUtcDateTime(revokedBefore, { ms: true })} were revoked, including this one.`
            : 'All earlier sign-ins of your account were revoked, including this one.'}
        </Callout>
      );
    case 'everywhere-unconfirmed':
      return (
        <Callout tone="warning" role="status" title="This browser is signed out">
          It could not be confirmed whether your other sign-ins were signed out. Sign in and choose
          “Sign out everywhere” again.
        </Callout>
      );
  }
}
