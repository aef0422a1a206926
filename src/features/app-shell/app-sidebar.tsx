import { Link } from '@tanstack/react-router';
import { LookoutMark } from '../../ui/icons';
import styles from './app-shell.module.css';
import { navEntries } from './nav-entries';

export function AppSidebar({ organization }: { organization: string | undefined }) {
  return (
    <aside className={styles.sidebar}>
      <div className={styles.brand}>
        <LookoutMark size={22} />
        <span className={styles.brandName}>Lookout</span>
      </div>
      {organization !== undefined && (
        <p className={styles.org} title={organization}>
          {organization}
        </p>
      )}
      <nav aria-label="Main" className={styles.nav}>
        <ul>
          {navEntries.map(({ to, label, exact = false, icon: Icon }) => (
            <li key={to}>
              <Link to={to} className={styles.navLink} activeOptions={{ exact }}>
                <Icon className={styles.navIcon} />
                <span>{label}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
