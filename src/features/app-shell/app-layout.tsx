import type { ReactNode } from 'react';
import type { Account } from '../../api/queries/account';
import type { Project } from '../../api/queries/projects';
import { AccountMenu } from './account-menu';
import styles from './app-shell.module.css';
import { AppSidebar } from './app-sidebar';
import { LiveControl } from './live-control';
import { NotificationsInbox } from './notifications-inbox';
import { ScopeControl } from './scope-control';
import { TimeRangeControl } from './time-range-control';

/**
 * The signed-in frame: sidebar navigation, the header with scope, time range, the Live
 * indicator and account.
 */
export function AppLayout({
  account,
  projects,
  children,
}: {
  account: Account;
  projects: readonly Project[];
  children: ReactNode;
}) {
  return (
    <div className={styles.shell}>
      <AppSidebar organization={account.organizations[0]?.name} />
      <div className={styles.main}>
        <header className={styles.header}>
          <div className={styles.filters}>
            <ScopeControl projects={projects} />
            <TimeRangeControl />
          </div>
          <div className={styles.headerEnd}>
            <NotificationsInbox />
            <LiveControl projects={projects} />
            <AccountMenu account={account} />
          </div>
        </header>
        <main className={styles.content}>{children}</main>
      </div>
    </div>
  );
}
