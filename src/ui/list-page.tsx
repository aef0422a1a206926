import type { CSSProperties, ReactNode } from 'react';
import styles from './list-page.module.css';

/**
 * A list page's frame: it fills the viewport below the app header, with the heading (and
 * `titleActions` beside it) and the filters on top, and the page's list below, scrolling
 * inside it.
 */
export function ListPage({
  title,
  titleActions,
  filters,
  gap = 8,
  children,
}: {
  title: string;
  titleActions?: ReactNode;
  filters: ReactNode;
  /** Space between the header and the parts below it, in pixels. */
  gap?: number;
  children: ReactNode;
}) {
  return (
    <div className={styles.page} style={{ '--list-page-gap': `${gap}px` } as CSSProperties}>
      <div className={styles.header}>
        {titleActions === undefined ? (
          <h1 className={styles.title}>{title}</h1>
        ) : (
          <div className={styles.titleRow}>
            <h1 className={styles.title}>{title}</h1>
            {titleActions}
          </div>
        )}
        {filters}
      </div>
      {children}
    </div>
  );
}
