import styles from './pending-state.module.css';

/** Shown while a page loads for longer than a moment. */
export function PendingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className={styles.pending} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
