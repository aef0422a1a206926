import { useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import {
  ACTION_KIND_LABELS,
  analyticsQueries,
  type OverviewParams,
} from '../../api/queries/analytics';
import { QueryBoundary } from '../../ui/query-boundary';
import fieldStyles from '../../ui/labelled-field.module.css';
import { ACTION_KIND_VALUES, sameAction, type ActionRef } from './analytics-overview-search';
import styles from './action-select.module.css';
import { isolateText } from '../../lib/isolate-text';

// Kinds hold no colon, so the first one splits an option's value back into kind and name.
const optionValue = (a: ActionRef) => `${a.kind}:${a.name}`;

function parseOption(value: string): ActionRef | undefined {
  const at = value.indexOf(':');
  const kind = ACTION_KIND_VALUES.find((k) => k === value.slice(0, at));
  return kind && at > 0 ? { kind, name: value.slice(at + 1) } : undefined;
}

type Props = {
  label: string;
  /** The option meaning "no action chosen" (the service's default). */
  anyLabel: string;
  value: ActionRef | undefined;
  overview: OverviewParams;
  onChange: (action: ActionRef | undefined) => void;
};

/**
 * An action chosen among the overview's top actions. An action from a shared link that is not
 * among them stays selectable (it is still what the URL asks for). While the overview loads,
 * or when it failed, only the current choice is offered.
 */
export function ActionSelect(props: Props) {
  return (
    <QueryBoundary
      resetKey={JSON.stringify(props.overview)}
      pending={<ActionSelectField {...props} choices={[]} />}
      renderError={() => <ActionSelectField {...props} choices={[]} />}
    >
      <LoadedActionSelect {...props} />
    </QueryBoundary>
  );
}

function LoadedActionSelect(props: Props) {
  const { data } = useSuspenseQuery(analyticsQueries.overview(props.overview));
  return (
    <ActionSelectField
      {...props}
      choices={data.top_actions.map((a) => ({ kind: a.kind, name: a.name }))}
    />
  );
}

function ActionSelectField({
  label,
  anyLabel,
  value,
  onChange,
  choices,
}: Props & { choices: readonly ActionRef[] }) {
  const id = useId();
  const linked = value !== undefined && !choices.some((c) => sameAction(c, value));
  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <select
        id={id}
        className={`${fieldStyles.select} ${styles.select}`}
        value={value ? optionValue(value) : ''}
        onChange={(e) => onChange(parseOption(e.target.value))}
      >
        <option value="">{anyLabel}</option>
        {choices.map((c) => (
          <option key={optionValue(c)} value={optionValue(c)}>
            {ACTION_KIND_LABELS[c.kind]}: {isolateText(c.name)}
          </option>
        ))}
        {linked && (
          <option value={optionValue(value)}>
            {ACTION_KIND_LABELS[value.kind]}: {isolateText(value.name)}
          </option>
        )}
      </select>
    </div>
  );
}
