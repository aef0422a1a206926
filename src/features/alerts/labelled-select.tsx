import { useId } from 'react';
import field from '../../ui/text-field.module.css';

/**
 * A select with its label above and, when the draft is wrong there, the problem below: the
 * look of `TextField`, so a form's selects and boxes line up.
 */
export function LabelledSelect<V extends string>({
  label,
  value,
  options,
  onChange,
  error,
  disabled,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className={field.field}>
      <label htmlFor={id} className={field.label}>
        {label}
      </label>
      <select
        id={id}
        className={field.input}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          const next = options.find((o) => o.value === e.target.value);
          if (next) onChange(next.value);
        }}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className={field.error}>
          {error}
        </p>
      )}
    </div>
  );
}
