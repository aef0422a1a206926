import { useId, type ReactNode } from 'react';
import styles from './report-page.module.css';

/** One card of a report page: its title, what it counts, its own controls, then its content. */
export function ReportSection({
  title,
  note,
  controls,
  children,
}: {
  title: string;
  note?: ReactNode;
  controls?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className={styles.section} aria-labelledby={id}>
      <header className={styles.sectionHeader}>
        <div className={styles.sectionHeading}>
          <h2 id={id} className={styles.sectionTitle}>
            {title}
          </h2>
          {note !== undefined && <p className={styles.sectionNote}>{note}</p>}
        </div>
        {controls && (
          <div className={styles.sectionControls} role="group" aria-label={`${title} settings`}>
            {controls}
          </div>
        )}
      </header>
      {children}
    </section>
  );
}
