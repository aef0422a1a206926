import type { ReactNode } from 'react';
import styles from './state-frame.module.css';

/** The framed area a list page shows instead of its list: loading, failed or empty. */
export function StateFrame({ children }: { children: ReactNode }) {
  return <div className={styles.frame}>{children}</div>;
}
