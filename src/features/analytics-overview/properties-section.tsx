import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { useSuspenseQuery } from '@tanstack/react-query';
import { analyticsQueries, type AnalyticsScope } from '../../api/queries/analytics';
import { formatBasisPoints } from '../../lib/format-share';
import { coverageSentence, formatCount, plural, typeBreakdown } from './analytics-text';
import tableStyles from './data-table.module.css';
import styles from './properties-section.module.css';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { Coverage, NoActions } from './analytics-coverage';

/** The top-level property keys actions carry, how often and under which JSON types. */
export function PropertiesSection({ params }: { params: AnalyticsScope & { limit: number } }) {
  return (
    <ReportSection
      title="Properties"
      note="Top-level keys of the actions’ properties. Values are never read, only keys and types."
    >
      <ReadBoundary resetKey={JSON.stringify(params)} label="Reading properties…" belowFold>
        <PropertiesBody params={params} />
      </ReadBoundary>
    </ReportSection>
  );
}

function PropertiesBody({ params }: { params: AnalyticsScope & { limit: number } }) {
  const { data } = useSuspenseQuery(analyticsQueries.properties(params));
  const { coverage } = data;
  return (
    <>
      <Coverage
        lines={[
          coverageSentence(coverage.events_with_properties, coverage.events, 'carry properties'),
        ]}
        limitations={coverage.limitations}
      />
      {coverage.events === 0 ? (
        <NoActions detail={false} />
      ) : data.properties.length === 0 ? (
        <p className={styles.footer}>No action in range carries a property.</p>
      ) : (
        <>
          <div className={tableStyles.wrap}>
            <table className={tableStyles.table} aria-label="Property keys">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col" className={tableStyles.num}>
                    Actions holding it
                  </th>
                  <th scope="col">Types</th>
                </tr>
              </thead>
              <tbody>
                {data.properties.map((p) => {
                  const share = p.events / coverage.events;
                  return (
                    <tr key={p.key}>
                      <td className={tableStyles.name} title={markBidiControls(p.key)}>
                        <TelemetryText text={p.key} />
                      </td>
                      <td className={tableStyles.num}>
                        <span className={styles.holding}>
                          {formatCount(p.events)}
                          <span className={styles.meter} aria-hidden="true">
                            <span
                              className={styles.meterFill}
                              style={{ width: `${Math.min(100, share * 100)}%` }}
                            />
                          </span>
                          <span className={styles.share}>{formatBasisPoints(share * 10_000)}</span>
                        </span>
                      </td>
                      <td className={styles.types}>{typeBreakdown(p)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <p className={styles.footer}>
            <span>
              {plural(data.properties.length, 'key', 'keys')}, most held first; the share is of all{' '}
              {plural(coverage.events, 'action', 'actions')}. Nested keys are not listed.
            </span>
            {data.truncated && (
              <span className={styles.truncated} role="status">
                More keys were seen than the {formatCount(params.limit)} listed.
              </span>
            )}
          </p>
        </>
      )}
    </>
  );
}
