import type { ReactNode } from 'react';
import styles from './callout.module.css';
import { AlertIcon, CheckIcon, InfoIcon } from './icons';

export type CalloutTone = 'info' | 'success' | 'warning' | 'danger';

const icons = { info: InfoIcon, success: CheckIcon, warning: AlertIcon, danger: AlertIcon };

/**
 * A short message with a tone. The tone is always doubled by an icon and the words; `role`
 * is "alert" for failures the person must act on and "status" for notes.
 */
export function Callout({
  tone,
  title,
  children,
  role,
}: {
  tone: CalloutTone;
  title?: ReactNode;
  children?: ReactNode;
  role?: 'alert' | 'status';
}) {
  const Icon = icons[tone];
  return (
    <div className={`${styles.callout} ${styles[tone]}`} role={role}>
      <Icon className={styles.icon} />
      <div className={styles.body}>
        {title !== undefined && <p className={styles.title}>{title}</p>}
        {children}
      </div>
    </div>
  );
}
