import type { ReactNode } from 'react';
import styles from './avatar.module.css';

/** A small decorative badge for an assignee: a person's initials (round) or a team's "#". */
export function Avatar({ team = false, children }: { team?: boolean; children: ReactNode }) {
  return (
    <span className={styles.avatar} data-team={team || undefined} aria-hidden="true">
      {children}
    </span>
  );
}
