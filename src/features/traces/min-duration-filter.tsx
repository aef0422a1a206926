import { useEffect, useEffectEvent, useId, useState } from 'react';
import { FILTER_DEBOUNCE_MS } from '../../ui/filter-input';
import { checkMinDuration } from './traces-search';
import styles from './trace-filter-bar.module.css';

/**
 * The minimum trace duration, in whole milliseconds. What is typed is checked with the
 * service's rule before anything is sent: a valid value is applied once typing pauses (or at
 * once on Enter); an invalid one is explained under the filters and never sent. A value that
 * came in through a link is shown as it is, with the same explanation.
 */
export function MinDurationFilter({
  value,
  onCommit,
  onProblem,
  errorId,
}: {
  value: number | undefined;
  onCommit: (value: number | undefined) => void;
  /** The explanation of what is typed now (`null` when it is fine). */
  onProblem: (message: string | null) => void;
  /** The id of the element that shows the explanation. */
  errorId: string;
}) {
  const id = useId();
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // Changed underneath (Clear filters, Back): show the new value.
    setShown(value);
    setText(value === undefined ? '' : String(value));
  }
  const check = checkMinDuration(text);
  const problem = check.ok ? null : check.message;
  const pendingValue = check.ok && check.value !== value ? check.value : null;
  const commit = useEffectEvent((next: number | undefined) => onCommit(next));
  const report = useEffectEvent((message: string | null) => onProblem(message));

  useEffect(() => report(problem), [problem]);

  useEffect(() => {
    if (pendingValue === null) return;
    const timer = setTimeout(() => commit(pendingValue), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [pendingValue]);

  return (
    <div className={styles.duration} data-active={value !== undefined || undefined}>
      <label htmlFor={id} className={styles.durationLabel}>
        Min duration
      </label>
      <input
        id={id}
        className={styles.durationInput}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        placeholder="0"
        value={text}
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem !== null ? errorId : undefined}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && check.ok && check.value !== value) onCommit(check.value);
        }}
      />
      <span className={styles.durationUnit} aria-hidden="true">
        ms
      </span>
    </div>
  );
}
