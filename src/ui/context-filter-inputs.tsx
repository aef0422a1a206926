import { FilterInput } from './filter-input';

/** The exact-match context every telemetry list filters by. */
export type ContextFilters = {
  service?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
};

const FIELDS = [
  { key: 'service', label: 'Service' },
  { key: 'release', label: 'Release' },
  { key: 'environment', label: 'Environment' },
] as const;

/**
 * Service, release and environment boxes. The service compares exact names, so each value is
 * committed without surrounding spaces; blank clears the filter.
 */
export function ContextFilterInputs({
  values,
  onCommit,
}: {
  values: ContextFilters;
  onCommit: (patch: ContextFilters) => void;
}) {
  return (
    <>
      {FIELDS.map(({ key, label }) => (
        <FilterInput
          key={key}
          label={label}
          trim
          value={values[key]}
          onCommit={(value) => onCommit({ [key]: value })}
        />
      ))}
    </>
  );
}
