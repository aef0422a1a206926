import { Link } from '@tanstack/react-router';
import { SEVERITIES } from '../../api/queries/logs';
import { serializeAttributeFilters, type AttributeFilter } from '../../lib/attribute-filter';
import { ChoiceFilter } from '../../ui/choice-filter';
import { ContextFilterInputs } from '../../ui/context-filter-inputs';
import { FilterInput } from '../../ui/filter-input';
import { severityLabels } from '../../ui/severity-badge';
import { AttributeFilterBar } from '../../widgets/attribute-filters/attribute-filter-bar';
import { explorerSearchOfLogQuery } from './alerts-search';
import styles from './rule-editor.module.css';

type Query = Record<string, string>;

const NO_FILTERS: readonly AttributeFilter[] = [];

function set(query: Query, key: string, value: string | undefined): Query {
  const next = { ...query };
  if (value === undefined || value === '') delete next[key];
  else next[key] = value;
  return next;
}

/**
 * A log rule's query: the logs explorer's filters (message text, severity, service, release,
 * environment) and its attribute filters, with the explorer's own filter bar (paths from the
 * project's catalog of the last 24 hours); "Open in the logs explorer" shows the query there.
 */
export function LogConditionFields({
  query,
  projectId,
  onChange,
}: {
  query: Query;
  projectId: string;
  onChange: (query: Query) => void;
}) {
  const explorer = explorerSearchOfLogQuery(query);
  const severity = SEVERITIES.find((s) => s === query.severity);
  return (
    <div className={styles.stack}>
      <div className={styles.filterRow} role="group" aria-label="Log query">
        <FilterInput
          label="Search messages"
          value={query.search}
          onCommit={(v) => onChange(set(query, 'search', v))}
          icon
          wide
        />
        <ChoiceFilter
          label="Severity"
          anyLabel="Any severity"
          value={severity}
          options={SEVERITIES}
          labels={severityLabels}
          onChange={(v) => onChange(set(query, 'severity', v))}
        />
        <ContextFilterInputs
          values={{
            service: query.service_name,
            release: query.release,
            environment: query.environment,
          }}
          onCommit={(patch) => {
            let next = query;
            if ('service' in patch) next = set(next, 'service_name', patch.service);
            if ('release' in patch) next = set(next, 'release', patch.release);
            if ('environment' in patch) next = set(next, 'environment', patch.environment);
            onChange(next);
          }}
        />
      </div>
      {projectId !== '' && (
        <AttributeFilterBar
          filters={explorer.filters ?? NO_FILTERS}
          // The paths offered are the project's of the preview's 24 hours.
          catalog={{ project_id: projectId, since: '24h' }}
          onChange={(filters) =>
            onChange(
              set(
                query,
                'attribute_filters',
                filters.length > 0 ? serializeAttributeFilters(filters) : undefined,
              ),
            )
          }
        />
      )}
      {projectId !== '' && (
        <Link
          to="/logs"
          search={{
            project: projectId,
            projects: undefined,
            since: '24h',
            until: undefined,
            ...explorer,
          }}
          className={styles.inlineLink}
        >
          Open this query in the logs explorer
        </Link>
      )}
    </div>
  );
}
