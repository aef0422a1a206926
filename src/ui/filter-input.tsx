import { useEffect, useEffectEvent, useId, useState } from 'react';
import styles from './filter-field.module.css';
import { SearchIcon } from './icons';

/** How long typing must pause before the filter changes. */
export const FILTER_DEBOUNCE_MS = 400;

/**
 * A text filter that commits once typing pauses (or at once on Enter); blank is `undefined`.
 * When `value` changes from elsewhere (Clear filters, Back), the box shows the new value.
 */
export function FilterInput({
  label,
  placeholder = label,
  value,
  onCommit,
  trim = false,
  icon = false,
  wide = false,
  suggestions,
}: {
  label: string;
  placeholder?: string;
  value: string | undefined;
  onCommit: (value: string | undefined) => void;
  /** Commit the text without surrounding spaces (exact-match filters). */
  trim?: boolean;
  /** A search icon inside the box. */
  icon?: boolean;
  wide?: boolean;
  /** Values offered as the person types (a native datalist); any other text is allowed. */
  suggestions?: readonly string[] | undefined;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // The value changed underneath: show it (React's "adjust state on prop change").
    setShown(value);
    setText(value ?? '');
  }
  const normalized = text.trim() === '' ? undefined : trim ? text.trim() : text;
  const commit = useEffectEvent((next: string | undefined) => onCommit(next));

  useEffect(() => {
    if (normalized === value) return;
    const timer = setTimeout(() => commit(normalized), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [normalized, value]);

  return (
    <div className={wide ? `${styles.inputWrap} ${styles.wide}` : styles.inputWrap}>
      {icon && <SearchIcon className={styles.inputIcon} />}
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className={icon ? `${styles.input} ${styles.withIcon}` : styles.input}
        placeholder={placeholder}
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        list={suggestions ? `${id}-suggestions` : undefined}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && normalized !== value) onCommit(normalized);
        }}
      />
      {suggestions && (
        <datalist id={`${id}-suggestions`}>
          {suggestions.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      )}
    </div>
  );
}
