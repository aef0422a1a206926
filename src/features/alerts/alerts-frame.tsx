import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import page from '../../ui/report-page.module.css';
import styles from './alerts-frame.module.css';

const TABS = [
  { to: '/alerts', label: 'Rules' },
  { to: '/alerts/history', label: 'History' },
  { to: '/alerts/webhooks', label: 'Webhooks' },
] as const;

/** The alerts pages' frame: the title, what the page is for, the three pages and actions. */
export function AlertsFrame({
  title,
  subtitle,
  actions,
  tabs = true,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  actions?: ReactNode;
  tabs?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={page.page}>
      <header className={page.header}>
        <div className={page.titleBlock}>
          <h1 className={page.title}>{title}</h1>
          <p className={page.subtitle}>{subtitle}</p>
        </div>
        {actions}
      </header>
      {tabs && (
        <nav aria-label="Alerts" className={styles.tabs}>
          {TABS.map((t) => (
            <Link
              key={t.to}
              to={t.to}
              className={styles.tab}
              activeOptions={{ exact: true, includeSearch: false }}
              activeProps={{ 'aria-current': 'page', className: styles.active }}
            >
              {t.label}
            </Link>
          ))}
        </nav>
      )}
      {children}
    </div>
  );
}
