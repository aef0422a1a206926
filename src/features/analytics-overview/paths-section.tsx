import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import {
  ACTION_KIND_LABELS,
  analyticsQueries,
  type OverviewParams,
  type PathsRequest,
} from '../../api/queries/analytics';
import fieldStyles from '../../ui/labelled-field.module.css';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { ActionSelect } from './action-select';
import {
  DEFAULT_PATH_DEPTH,
  MAX_PATH_DEPTH,
  MIN_PATH_DEPTH,
  type PathUnit,
} from './analytics-overview-search';
import { coverageSentence, formatCount, formatRate, plural, unitNoun } from './analytics-text';
import { pathText, shareBarWidth, stepKeys, type PathStep } from './path-format';
import styles from './paths-section.module.css';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { Coverage, NoActions } from './analytics-coverage';
import { useAnalyticsSearch, useSetAnalyticsSearch } from './use-analytics-search';

const UNIT_OPTIONS = [
  { value: 'session', label: 'Sessions' },
  { value: 'identified_user', label: 'Users' },
] as const;

const DEPTHS = Array.from(
  { length: MAX_PATH_DEPTH - MIN_PATH_DEPTH + 1 },
  (_, i) => MIN_PATH_DEPTH + i,
);

/** The most common sequences of actions after a start action, per session or per user. */
export function PathsSection({
  request,
  overview,
}: {
  request: PathsRequest;
  overview: OverviewParams;
}) {
  const search = useAnalyticsSearch();
  const setSearch = useSetAnalyticsSearch();
  const depthId = useId();
  const unit: PathUnit = request.analysis_unit ?? 'session';
  return (
    <ReportSection
      title="Paths"
      note="Each unit’s first start action and the actions right after it, in time order."
      controls={
        <>
          <ActionSelect
            label="Start action"
            anyLabel="First action of each unit"
            value={search.paths_start}
            overview={overview}
            onChange={(a) => setSearch({ paths_start: a })}
          />
          <div className={fieldStyles.field}>
            <label htmlFor={depthId} className={fieldStyles.label}>
              Steps after
            </label>
            <select
              id={depthId}
              className={`${fieldStyles.select} ${styles.select}`}
              value={request.depth ?? DEFAULT_PATH_DEPTH}
              onChange={(e) => {
                const depth = Number(e.target.value);
                setSearch({ paths_depth: depth === DEFAULT_PATH_DEPTH ? undefined : depth });
              }}
            >
              {DEPTHS.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </div>
          <SegmentedChoice
            label="Paths counted by"
            caption="Count by"
            value={unit}
            options={UNIT_OPTIONS}
            onChange={(v) => setSearch({ paths_unit: v === 'session' ? undefined : v })}
          />
        </>
      }
    >
      <ReadBoundary resetKey={JSON.stringify(request)} label="Reading paths…" belowFold>
        <PathsBody request={request} unit={unit} />
      </ReadBoundary>
    </ReportSection>
  );
}

function PathsBody({ request, unit }: { request: PathsRequest; unit: PathUnit }) {
  const { data } = useSuspenseQuery(analyticsQueries.paths(request));
  const { coverage, summary } = data;
  const depth = data.query.depth;
  return (
    <>
      <Coverage
        lines={[
          coverageSentence(
            coverage.unit_identified_events,
            coverage.events,
            unit === 'session' ? 'carry a session id' : 'carry a user id (distinct_id)',
          ),
          ...(coverage.excluded_events > 0
            ? [`${plural(coverage.excluded_events, 'action', 'actions')} without one are left out`]
            : []),
        ]}
        limitations={coverage.limitations}
      />
      {coverage.events === 0 ? (
        <NoActions detail={false} />
      ) : summary.units === 0 ? (
        <p className={styles.summary}>No {unitNoun(unit, 2)} reached the start action in range.</p>
      ) : (
        <>
          <p className={styles.summary} aria-label="Paths summary">
            <strong>{formatCount(summary.units)}</strong> {unitNoun(unit, summary.units)} with a
            start, following <strong>{formatCount(summary.distinct_paths)}</strong> distinct{' '}
            {summary.distinct_paths === 1 ? 'path' : 'paths'}.
          </p>
          <ol className={styles.list} aria-label="Paths">
            {data.paths.map((path) => (
              <li key={pathText(path.steps)} className={styles.row}>
                <PathSteps steps={path.steps} depth={depth} />
                <div className={styles.measure}>
                  <span className={styles.measureText}>
                    <span className={styles.units}>
                      {formatCount(path.units)} {unitNoun(unit, path.units)}
                    </span>
                    <strong>{formatRate(path.share)}</strong>
                  </span>
                  <span className={styles.track} aria-hidden="true">
                    <span
                      className={styles.fill}
                      style={{ width: `${shareBarWidth(path.share)}%` }}
                    />
                  </span>
                </div>
              </li>
            ))}
          </ol>
          <p className={styles.footer}>
            <span>
              The share is of all {unitNoun(unit, 2)} with a start. A path shorter than {depth + 1}{' '}
              steps ended there.
            </span>
            {data.truncated && (
              <span className={styles.truncated} role="status">
                More paths occurred than the {formatCount(data.query.limit)} listed.
              </span>
            )}
          </p>
        </>
      )}
    </>
  );
}

function PathSteps({ steps, depth }: { steps: PathStep[]; depth: number }) {
  const keys = stepKeys(steps);
  return (
    <ol className={styles.steps} aria-label={markBidiControls(pathText(steps))}>
      {steps.map((step, i) => (
        <li key={keys[i]} className={styles.stepItem}>
          {i > 0 && (
            <span className={styles.arrow} aria-hidden="true">
              →
            </span>
          )}
          <span
            className={`${styles.chip} ${i === 0 ? styles.start : ''}`}
            title={markBidiControls(`${ACTION_KIND_LABELS[step.kind]} ${step.event_name}`)}
          >
            <span className={styles.chipKind}>{ACTION_KIND_LABELS[step.kind]}</span>
            <span className={styles.chipName}>
              <TelemetryText text={step.event_name} />
            </span>
          </span>
        </li>
      ))}
      {steps.length <= depth && (
        <li className={styles.ended} aria-hidden="true">
          ended
        </li>
      )}
    </ol>
  );
}
