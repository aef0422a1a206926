import type { TraceMeasure } from '../../api/queries/alerts';
import { TextField } from '../../ui/text-field';
import { LabelledSelect } from './labelled-select';
import { TRACE_MEASURE_LABELS } from './rule-draft';
import styles from './rule-editor.module.css';

const MEASURES = (Object.keys(TRACE_MEASURE_LABELS) as TraceMeasure[]).map((value) => ({
  value,
  label: TRACE_MEASURE_LABELS[value],
}));

/** A trace rule: one service's root spans, and what is measured of them per window. */
export function TraceConditionFields({
  service,
  measure,
  error,
  onService,
  onMeasure,
}: {
  service: string;
  measure: TraceMeasure;
  error: string | undefined;
  onService: (service: string) => void;
  onMeasure: (measure: TraceMeasure) => void;
}) {
  return (
    <div className={styles.fieldRow}>
      <TextField
        label="Service"
        value={service}
        placeholder="checkout-api"
        onChange={(e) => onService(e.target.value)}
        error={error}
        hint="The exact service name of the root spans."
      />
      <LabelledSelect label="Measure" value={measure} options={MEASURES} onChange={onMeasure} />
    </div>
  );
}
