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
import { useTriageSync } from './use-triage-sync';

/**
 * The signed-in frame: sidebar navigation, the header with scope, time range, the Live
 * indicator and account. It keeps the issue pages and the inbox in step with others' triage.
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
  useTriageSync();
  return (
    <div className={styles.shell}>
      {/* First in the tab order: past the navigation and header controls to the page. */}
      <a
        className={styles.skipLink}
        href="#main-content"
        onClick={(event) => {
          // Focus moves without a hash navigation (the router owns the URL).
          event.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
      >
        Skip to content
      </a>
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
        <main id="main-content" className={styles.content} tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
