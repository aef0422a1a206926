import styles from './limitations-list.module.css';

/** What a read leaves out, as the service words it, folded under a count. */
export function LimitationsList({ limitations }: { limitations: readonly string[] }) {
  if (limitations.length === 0) return null;
  return (
    <details className={styles.limitations}>
      <summary>
        {limitations.length === 1 ? '1 limitation' : `${limitations.length} limitations`}
      </summary>
      <ul>
        {limitations.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </details>
  );
}
