import { useId } from 'react';
import styles from './labelled-field.module.css';

/**
 * The project of a read that takes exactly one (metric series, analytics) when the header's
 * scope holds several or every project. An empty value means none is picked yet, or, on a page
 * that then lists every project in scope, says so (`allLabel`).
 */
export function OneProjectPicker({
  choices,
  value,
  onChange,
  allLabel,
}: {
  choices: readonly { id: string; name: string }[];
  value: string | null;
  onChange: (projectId: string | undefined) => void;
  /** The empty choice's label where it lists every project in scope (not a missing pick). */
  allLabel?: string;
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
        data-missing={(value === null && allLabel === undefined) || undefined}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      >
        <option value="">{allLabel ?? 'Choose a project…'}</option>
        {choices.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </div>
  );
}
