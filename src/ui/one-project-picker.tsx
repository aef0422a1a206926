import { useId } from 'react';
import styles from './labelled-field.module.css';

/**
 * The project of a read that takes exactly one (metric series, analytics) when the header's
 * scope holds several or every project. An empty value means none is picked yet.
 */
export function OneProjectPicker({
  choices,
  value,
  onChange,
}: {
  choices: readonly { id: string; name: string }[];
  value: string | null;
  onChange: (projectId: string | undefined) => void;
}) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        Project
      </label>
      <select
        id={id}
        className={styles.select}
        value={value ?? ''}
        data-missing={value === null || undefined}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      >
        <option value="">Choose a project…</option>
        {choices.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  );
}
