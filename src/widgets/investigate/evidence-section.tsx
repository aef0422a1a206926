import { useId, type ReactNode } from 'react';
import styles from './evidence.module.css';

/** One section of a bundle: its title, how many items it holds, its rows. */
export function EvidenceSection({
  title,
  count,
  children,
}: {
  title: string;
  count?: number | undefined;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className={styles.section} aria-labelledby={id}>
      <h3 id={id} className={styles.sectionTitle}>
        {title}
        {count !== undefined && (
          <span className={styles.count}>{count.toLocaleString('en-US')}</span>
        )}
      </h3>
      {children}
    </section>
  );
}
