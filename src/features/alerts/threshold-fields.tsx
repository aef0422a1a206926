import type { AlertOp } from '../../api/queries/alerts';
import { TextField } from '../../ui/text-field';
import { LabelledSelect } from './labelled-select';
import { WINDOW_CHOICES, type DraftProblem, type RuleDraft } from './rule-draft';
import styles from './rule-editor.module.css';

const OPS: { value: AlertOp; label: string }[] = [
  { value: 'above', label: 'Above' },
  { value: 'below', label: 'Below' },
];

function windowLabel(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * When the rule fires and resolves: above or below a threshold over a window, and the value it
 * must come back past to resolve (hysteresis; empty resolves at the threshold itself).
 */
export function ThresholdFields({
  draft,
  problem,
  unit,
  opChoice,
  onChange,
}: {
  draft: RuleDraft;
  problem: DraftProblem | null;
  unit: string;
  /** Issue counts only fire above; the others may watch for a drop. */
  opChoice: boolean;
  onChange: (patch: Partial<RuleDraft>) => void;
}) {
  const windows = WINDOW_CHOICES.map((m) => ({ value: String(m), label: windowLabel(m) }));
  if (!windows.some((w) => w.value === draft.windowMinutes)) {
    windows.unshift({ value: draft.windowMinutes, label: `${draft.windowMinutes} minutes` });
  }
  const errorOf = (field: DraftProblem['field']) =>
    problem?.field === field ? problem.message : undefined;
  return (
    <div className={styles.fieldRow}>
      {opChoice && (
        <LabelledSelect
          label="Fires when the value is"
          value={draft.op}
          options={OPS}
          onChange={(op) => onChange({ op })}
        />
      )}
      <TextField
        label={`Threshold (${unit})`}
        inputMode="decimal"
        value={draft.threshold}
        onChange={(e) => onChange({ threshold: e.target.value })}
        error={errorOf('threshold')}
        className={styles.numberField}
      />
      <LabelledSelect
        label="Over a window of"
        value={draft.windowMinutes}
        options={windows}
        onChange={(windowMinutes) => onChange({ windowMinutes })}
        error={errorOf('window')}
      />
      <TextField
        label="Resolves past (optional)"
        inputMode="decimal"
        value={draft.resolveThreshold}
        placeholder={draft.threshold || 'the threshold'}
        onChange={(e) => onChange({ resolveThreshold: e.target.value })}
        error={errorOf('resolve')}
        hint={
          draft.op === 'above'
            ? 'Resolves once the value is at or below this; empty: the threshold.'
            : 'Resolves once the value is at or above this; empty: the threshold.'
        }
        className={styles.numberField}
      />
    </div>
  );
}
