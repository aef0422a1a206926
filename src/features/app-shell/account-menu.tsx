import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { useRef, useState } from 'react';
import type { Account } from '../../api/queries/account';
import { authMutations } from '../../api/queries/auth';
import { ChevronDownIcon, InfoIcon, ShieldIcon, SignOutIcon } from '../../ui/icons';
import popover from '../../ui/popover.module.css';
import styles from './account-menu.module.css';
import { SupportDialog } from '../../widgets/support-dialog/support-dialog';
import { SignOutEverywhereDialog } from './sign-out-everywhere-dialog';

function initialsOf(account: Account): string {
  const source = account.name?.trim() || account.email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?';
}

/**
 * Who is signed in, and signing out. Receives the account as a prop (the layout reads it),
 * so signing out — which clears the cache — does not make this menu read it again.
 */
export function AccountMenu({ account }: { account: Account }) {
  const navigate = useNavigate();
  const signOut = useMutation(authMutations.signOut());
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [supportOpen, setSupportOpen] = useState(false);
  // The dialogs below are opened from menu items, which are gone when they close.
  const triggerRef = useRef<HTMLButtonElement>(null);
  const organization = account.organizations[0];
  const display = account.name ?? account.email;

  return (
    <>
      {/* Not modal: a modal menu hides the page (aria-hidden) while its controls stay focusable. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger ref={triggerRef} className={styles.trigger} aria-label="Account menu">
          <span className={styles.avatar} aria-hidden="true">
            {initialsOf(account)}
          </span>
          <span className={styles.who}>
            <span className={styles.name}>{display}</span>
            {organization && <span className={styles.orgName}>{organization.name}</span>}
          </span>
          <ChevronDownIcon className={popover.chevron} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className={`${popover.surface} ${styles.menu}`}
            align="end"
            sideOffset={6}
            collisionPadding={12}
          >
            <DropdownMenu.Label className={styles.identity}>
              {account.name && <span className={styles.identityName}>{account.name}</span>}
              <span className={styles.identityEmail}>{account.email}</span>
              {account.organizations.map((o) => (
                <span key={o.id} className={styles.identityOrg}>
                  {o.name} · {o.role}
                </span>
              ))}
            </DropdownMenu.Label>
            <DropdownMenu.Separator className={popover.separator} />
            <DropdownMenu.Item className={styles.item} onSelect={() => setSupportOpen(true)}>
              <InfoIcon />
              Contact support…
            </DropdownMenu.Item>
            <DropdownMenu.Separator className={popover.separator} />
            <DropdownMenu.Item
              className={styles.item}
              disabled={signOut.isPending}
              onSelect={() =>
                signOut.mutate(undefined, {
                  onSettled: () =>
                    void navigate({ to: '/sign-in', search: { reason: 'signed-out' } }),
                })
              }
            >
              <SignOutIcon />
              {signOut.isPending ? 'Signing out…' : 'Sign out'}
            </DropdownMenu.Item>
            <DropdownMenu.Item className={styles.item} onSelect={() => setConfirmOpen(true)}>
              <ShieldIcon />
              Sign out everywhere…
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <SignOutEverywhereDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        returnFocusRef={triggerRef}
      />
      <SupportDialog open={supportOpen} onOpenChange={setSupportOpen} returnFocusRef={triggerRef} />
    </>
  );
}
