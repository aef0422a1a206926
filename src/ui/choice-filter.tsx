import { FilterSelect } from './filter-select';

/**
 * A filter bar's select of one value among `options`, or any (`undefined`, the first option,
 * e.g. "Any severity"). `className` is for the select.
 */
export function ChoiceFilter<T extends string>({
  label,
  anyLabel,
  value,
  options,
  labels,
  onChange,
  className,
}: {
  label: string;
  anyLabel: string;
  value: T | undefined;
  options: readonly T[];
  labels: Readonly<Record<T, string>>;
  onChange: (value: T | undefined) => void;
  className?: string;
}) {
  return (
    <FilterSelect
      aria-label={label}
      className={className}
      empty={value === undefined}
      value={value ?? ''}
      onChange={(e) => {
        const next = options.find((o) => o === e.target.value);
        onChange(next);
      }}
    >
      <option value="">{anyLabel}</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {labels[o]}
        </option>
      ))}
    </FilterSelect>
  );
}
