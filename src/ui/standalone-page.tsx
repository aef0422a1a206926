import type { ReactNode } from 'react';
import { LookoutMark } from './icons';
import styles from './standalone-page.module.css';

/** A page outside the signed-in layout (sign-in, not found): the product mark and one card. */
export function StandalonePage({ children }: { children: ReactNode }) {
  return (
    <main className={styles.page}>
      <div className={styles.column}>
        <div className={styles.brand}>
          <LookoutMark size={28} />
          <span className={styles.name}>Lookout</span>
        </div>
        <div className={styles.card}>{children}</div>
      </div>
    </main>
  );
}
