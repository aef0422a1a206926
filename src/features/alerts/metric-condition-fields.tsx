import { useQuery } from '@tanstack/react-query';
import { metricQueries } from '../../api/queries/metrics';
import { ContextFilterInputs } from '../../ui/context-filter-inputs';
import { TextField } from '../../ui/text-field';
import { LabelledSelect } from './labelled-select';
import { METRIC_AGGREGATIONS, type MetricAggregation, type RuleDraft } from './rule-draft';
import styles from './rule-editor.module.css';

const AGGREGATIONS = METRIC_AGGREGATIONS.map((value) => ({ value, label: value }));

/**
 * A metric rule: the metrics explorer's query (the metric's name, how its samples of a window
 * are combined, and exact service, release and environment), offering the project's names.
 */
export function MetricConditionFields({
  projectId,
  name,
  aggregation,
  filters,
  error,
  onChange,
}: {
  projectId: string;
  name: string;
  aggregation: MetricAggregation;
  filters: RuleDraft['metricFilters'];
  error: string | undefined;
  onChange: (
    patch: Partial<Pick<RuleDraft, 'metricName' | 'metricAggregation' | 'metricFilters'>>,
  ) => void;
}) {
  const names = useQuery({
    ...metricQueries.names({ project_id: projectId, since: '24h' }),
    enabled: projectId !== '',
  });
  const listId = `metric-names-${projectId}`;
  return (
    <div className={styles.stack}>
      <div className={styles.fieldRow}>
        <TextField
          label="Metric"
          value={name}
          list={listId}
          placeholder="http.server.duration"
          onChange={(e) => onChange({ metricName: e.target.value })}
          error={error}
          hint={
            names.isError
              ? 'The project’s metric names could not be read; type the exact name.'
              : names.data?.truncated
                ? 'Showing the first 1,000 names; type to find others.'
                : undefined
          }
        />
        <datalist id={listId}>
          {names.data?.names.map((n) => (
            <option key={n.name} value={n.name} />
          ))}
        </datalist>
        <LabelledSelect
          label="Aggregation"
          value={aggregation}
          options={AGGREGATIONS}
          onChange={(metricAggregation) => onChange({ metricAggregation })}
        />
      </div>
      <div className={styles.filterRow} role="group" aria-label="Metric filters">
        <ContextFilterInputs
          values={{
            service: filters.service_name || undefined,
            release: filters.release || undefined,
            environment: filters.environment || undefined,
          }}
          onCommit={(patch) =>
            onChange({
              metricFilters: {
                ...filters,
                ...('service' in patch ? { service_name: patch.service ?? '' } : {}),
                ...('release' in patch ? { release: patch.release ?? '' } : {}),
                ...('environment' in patch ? { environment: patch.environment ?? '' } : {}),
              },
            })
          }
        />
      </div>
    </div>
  );
}
