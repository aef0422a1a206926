import type { ErrorComponentProps } from '@tanstack/react-router';
import { LookoutMark } from '../../ui/icons';
import { RouteError } from '../../ui/route-error';
import styles from './app-shell.module.css';

/**
 * When the layout itself cannot load (the account or the project list failed), there is no
 * sidebar or header to show: the product mark and the failure, with "Try again".
 */
export function AppError(props: ErrorComponentProps) {
  return (
    <div className={styles.errorFrame}>
      <header className={styles.errorHeader}>
        <LookoutMark size={22} />
        <span className={styles.brandName}>Lookout</span>
      </header>
      <main className={styles.errorMain}>
        <RouteError {...props} />
      </main>
    </div>
  );
}
