import { Link } from '@tanstack/react-router';
import { SEVERITIES } from '../../api/queries/logs';
import { describeFilter } from '../../lib/attribute-filter';
import { Button } from '../../ui/button';
import { ChoiceFilter } from '../../ui/choice-filter';
import { ContextFilterInputs } from '../../ui/context-filter-inputs';
import { FilterInput } from '../../ui/filter-input';
import { severityLabels } from '../../ui/severity-badge';
import { explorerSearchOfLogQuery } from './alerts-search';
import styles from './rule-editor.module.css';

type Query = Record<string, string>;

function set(query: Query, key: string, value: string | undefined): Query {
  const next = { ...query };
  if (value === undefined || value === '') delete next[key];
  else next[key] = value;
  return next;
}

/**
 * A log rule's query: the logs explorer's filters (message text, severity, service, release,
 * environment), with the attribute filters it came with. Attribute filters are edited in the
 * explorer, where their paths are offered: "Open in the logs explorer" shows this query there.
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
      {(explorer.filters ?? []).length > 0 && (
        <div className={styles.chips}>
          <span className={styles.hint}>Attributes:</span>
          {(explorer.filters ?? []).map((f) => (
            <span key={describeFilter(f)} className={styles.chip}>
              {describeFilter(f)}
            </span>
          ))}
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onChange(set(query, 'attribute_filters', undefined))}
          >
            Remove attribute filters
          </Button>
        </div>
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
