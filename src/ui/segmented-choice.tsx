import { ToggleGroup } from 'radix-ui';
import field from './labelled-field.module.css';
import styles from './segmented-choice.module.css';

/**
 * One of a few values as a row of toggles (Radix ToggleGroup: radio semantics, arrow keys).
 * There is always one value: clicking the chosen one again keeps it.
 */
export function SegmentedChoice<V extends string>({
  label,
  value,
  options,
  onChange,
  caption,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  /** A short visible label above the toggles, as a form field has (`label` names the group). */
  caption?: string | undefined;
}) {
  const group = (
    <ToggleGroup.Root
      type="single"
      aria-label={label}
      className={styles.segmented}
      value={value}
      onValueChange={(next) => {
        const option = options.find((o) => o.value === next);
        if (option) onChange(option.value);
      }}
    >
      {options.map((o) => (
        <ToggleGroup.Item key={o.value} value={o.value} className={styles.segment}>
          {o.label}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
  if (caption === undefined) return group;
  return (
    <div className={field.field}>
      <span className={field.label} aria-hidden="true">
        {caption}
      </span>
      {group}
    </div>
  );
}
