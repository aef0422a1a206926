import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { Link } from '@tanstack/react-router';
import { investigationQueries } from '../../api/queries/investigations';
import type { TraceSummary } from '../../api/queries/traces';
import { formatUtcDateTime } from '../../lib/format-time';
import { CopyButton } from '../../ui/copy-button';
import { AlertIcon } from '../../ui/icons';
import { InvestigateButton } from '../../widgets/investigate/investigate-button';
import palette from './service-palette.module.css';
import { formatDuration } from '../../lib/format-duration';
import styles from './trace-detail.module.css';
import type { TraceOverview } from './trace-overview';

/** The most services listed by name; the rest are counted. */
const SHOWN_SERVICES = 8;

/**
 * The trace at a glance: the root span, duration, counts, services with their colours and
 * span counts, releases, environments, the slowest path and the issues that carry the trace.
 */
export function TraceSummaryHeader({
  traceId,
  overview,
  summary,
  startedAt,
  colors,
  summaryProblem,
  highlightPath,
  onHighlightPath,
}: {
  traceId: string;
  overview: TraceOverview;
  summary: TraceSummary | null;
  startedAt: string;
  colors: ReadonlyMap<string, number>;
  /** Why the service's summary is not shown (it failed on its own), or null. */
  summaryProblem: string | null;
  highlightPath: boolean;
  onHighlightPath: (on: boolean) => void;
}) {
  const path = summary?.slowest_path ?? [];
  const more = overview.services.length - SHOWN_SERVICES;
  return (
    <header className={`${styles.header} ${palette.palette}`}>
      <nav className={styles.crumbs} aria-label="Breadcrumb">
        <Link to="/traces" className={styles.crumbLink}>
          Traces
        </Link>
        <span aria-hidden="true">/</span>
        <code className={styles.traceId}>{traceId}</code>
        <CopyButton value={traceId} label="Copy trace id" />
        <span className={styles.crumbAction}>
          <InvestigateButton
            title="Investigate trace"
            query={investigationQueries.trace(traceId)}
          />
        </span>
      </nav>
      <div className={styles.headRow}>
        <div className={styles.headText}>
          <h1 className={styles.title}>
            <span
              className={styles.rootName}
              title={overview.rootName !== null ? markBidiControls(overview.rootName) : undefined}
            >
              {overview.rootName !== null ? (
                <TelemetryText text={overview.rootName} />
              ) : (
                'Trace without a root span'
              )}
            </span>
            {overview.rootService !== null && (
              <span
                className={styles.rootService}
                data-color={colors.get(overview.rootService) ?? 0}
              >
                <span className={palette.swatch} aria-hidden="true" />
                <TelemetryText text={overview.rootService} />
              </span>
            )}
          </h1>
          <dl className={styles.facts}>
            <Fact label="Duration">{formatDuration(overview.durationMs)}</Fact>
            <Fact label="Spans">{overview.spanCount.toLocaleString('en-US')}</Fact>
            <Fact label="Errors" tone={overview.errorCount > 0 ? 'danger' : undefined}>
              {overview.errorCount > 0 && <AlertIcon size={12} />}
              {overview.errorCount.toLocaleString('en-US')}
            </Fact>
            <Fact label="Services">{overview.services.length.toLocaleString('en-US')}</Fact>
            {overview.orphanCount > 0 && (
              <Fact label="Parent not received">
                {overview.orphanCount.toLocaleString('en-US')}
              </Fact>
            )}
            <Fact label="Started">{formatUtcDateTime(startedAt, { ms: true })}</Fact>
          </dl>
          {overview.rootMissing && (
            <p className={styles.warning}>
              The root span was not received: the rows start at the spans whose parent is missing.
            </p>
          )}
          {summaryProblem !== null && <p className={styles.warning}>{summaryProblem}</p>}
        </div>
        <div className={styles.headSide}>
          <Line label="Releases">
            <TelemetryText text={overview.releases.join(', ') || '–'} />
          </Line>
          <Line label="Environments">
            <TelemetryText text={overview.environments.join(', ') || '–'} />
          </Line>
          <Line label="Issues">
            {overview.issues.length === 0 ? (
              <span className={styles.muted}>
                {summary === null ? 'not known (no summary)' : 'none carry this trace'}
              </span>
            ) : (
              overview.issues.slice(0, 3).map((issue) => (
                <span key={issue.occurrence_id} className={styles.issueLine}>
                  <Link
                    to="/issues/$issueId"
                    params={{ issueId: issue.issue_id }}
                    className={styles.inlineLink}
                    title={markBidiControls(issue.title)}
                  >
                    <TelemetryText text={issue.title} />
                  </Link>
                </span>
              ))
            )}
            {overview.issues.length > 3 && (
              <span className={styles.muted}>and {overview.issues.length - 3} more</span>
            )}
          </Line>
        </div>
      </div>
      <ul className={styles.services} aria-label="Services">
        {overview.services.slice(0, SHOWN_SERVICES).map((s) => (
          <li
            key={s.service_name}
            className={styles.serviceChip}
            data-color={colors.get(s.service_name) ?? 0}
          >
            <span className={palette.swatch} aria-hidden="true" />
            <span className={styles.serviceName}>
              <TelemetryText text={s.service_name} />
            </span>
            <span className={styles.serviceCount}>
              {s.span_count.toLocaleString('en-US')} {s.span_count === 1 ? 'span' : 'spans'}
              {s.error_span_count > 0 && (
                <span className={styles.serviceErrors}>
                  {' · '}
                  {s.error_span_count.toLocaleString('en-US')}{' '}
                  {s.error_span_count === 1 ? 'error' : 'errors'}
                </span>
              )}
            </span>
          </li>
        ))}
        {more > 0 && <li className={styles.muted}>and {more} more</li>}
      </ul>
      <div className={styles.path}>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={highlightPath}
            onChange={(e) => onHighlightPath(e.target.checked)}
          />
          Highlight slowest path
        </label>
        {path.length > 0 ? (
          <span className={styles.pathSteps} aria-label="Slowest path">
            {path.map((s, i) => (
              <span key={`${s.span_id}-${i}`} className={styles.pathStep}>
                {i > 0 && (
                  <span className={styles.pathArrow} aria-hidden="true">
                    ›
                  </span>
                )}
                <span className={styles.pathName}>
                  <TelemetryText text={s.name} />
                </span>
                <span className={styles.pathDuration}>{formatDuration(s.duration_ms)}</span>
              </span>
            ))}
          </span>
        ) : (
          <span className={styles.muted}>
            the longest child at each level, from the first row (worked out from the spans)
          </span>
        )}
      </div>
    </header>
  );
}

function Fact({
  label,
  tone,
  children,
}: {
  label: string;
  tone?: 'danger' | undefined;
  children: React.ReactNode;
}) {
  return (
    <div className={styles.fact} data-tone={tone}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <p className={styles.line}>
      <span className={styles.lineLabel}>{label}</span>
      <span className={styles.lineValue}>{children}</span>
    </p>
  );
}
