import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { issuesQueries } from '../../api/queries/issues';
import { logsQueries } from '../../api/queries/logs';
import { actionQueries, metricQueries, type ReleaseRow } from '../../api/queries/releases';
import { traceQueries } from '../../api/queries/traces';
import { formatDuration } from '../../lib/format-duration';
import { formatShortUtc } from '../../lib/format-short-time';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ErrorState } from '../../ui/error-state';
import {
  ActionIcon,
  AlertIcon,
  ChevronDownIcon,
  IssueIcon,
  LogIcon,
  SpanIcon,
  TraceIcon,
} from '../../ui/icons';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { SeverityBadge } from '../../ui/severity-badge';
import { releaseListSearches, releaseReadFilters } from './release-links';
import { openSectionsOf, openSectionsSearch } from './release-search';
import styles from './release-sections.module.css';
import { SIGNAL_ORDER, type SignalKey } from './release-view';
import { useReleaseSearch, useSetReleaseSearch } from './use-release-search';

/** Items each section shows before pointing to its page (or loading more). */
const SHOWN = 8;

const count = (n: number) => n.toLocaleString('en-US');

const SECTION_META: Record<
  SignalKey,
  {
    title: string;
    icon: ReactNode;
    noun: (n: number) => string;
    countOf: (r: ReleaseRow) => number;
  }
> = {
  issues: {
    title: 'Issues',
    icon: <IssueIcon size={15} />,
    noun: (n) => (n === 1 ? 'issue' : 'issues'),
    countOf: (r) => r.issue_count,
  },
  traces: {
    title: 'Traces',
    icon: <TraceIcon size={15} />,
    noun: (n) => (n === 1 ? 'span' : 'spans'),
    countOf: (r) => r.trace_span_count,
  },
  logs: {
    title: 'Logs',
    icon: <LogIcon size={15} />,
    noun: (n) => (n === 1 ? 'log' : 'logs'),
    countOf: (r) => r.log_count,
  },
  actions: {
    title: 'Actions',
    icon: <ActionIcon size={15} />,
    noun: (n) => (n === 1 ? 'action' : 'actions'),
    countOf: (r) => r.action_count,
  },
  metrics: {
    title: 'Metrics',
    icon: <SpanIcon size={15} />,
    noun: (n) => (n === 1 ? 'sample' : 'samples'),
    countOf: (r) => r.metric_count,
  },
};

/**
 * The release's signals in the spec's order (issues, traces, logs, actions, metrics). The
 * section the row's `next_action` names is marked "Start here" and open; the others open on
 * demand (and only then read their list). Which are open is in the URL (`open`), so a link
 * shows the sections its sender had open.
 */
export function ReleaseSections({ row, start }: { row: ReleaseRow; start: SignalKey | null }) {
  const { open: openText } = useReleaseSearch();
  const setSearch = useSetReleaseSearch();
  const open = openSectionsOf(openText, start);
  const toggle = (key: SignalKey) => {
    const next = new Set(open);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setSearch({ open: openSectionsSearch(next, start) });
  };
  return (
    <div className={styles.sections}>
      {SIGNAL_ORDER.map((key) => (
        <Section
          key={key}
          signal={key}
          row={row}
          start={key === start}
          open={open.has(key)}
          onToggle={() => toggle(key)}
        />
      ))}
    </div>
  );
}

function Section({
  signal,
  row,
  start,
  open,
  onToggle,
}: {
  signal: SignalKey;
  row: ReleaseRow;
  start: boolean;
  open: boolean;
  onToggle: () => void;
}) {
  const meta = SECTION_META[signal];
  const n = meta.countOf(row);
  const bodyId = useId();
  const links = releaseListSearches(row);
  return (
    <section
      className={styles.section}
      data-start={start || undefined}
      aria-label={meta.title}
      data-testid={`release-section-${signal}`}
    >
      <header className={styles.head}>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          <ChevronDownIcon size={14} className={styles.chevron} />
          <span className={styles.icon}>{meta.icon}</span>
          <h2 className={styles.title}>{meta.title}</h2>
          <span className={n === 0 ? styles.countZero : styles.count}>
            {count(n)} {meta.noun(n)}
          </span>
          {start && <span className={styles.startBadge}>Start here</span>}
        </button>
        {signal === 'issues' && (
          <Link to="/issues" search={links.issues} className={styles.open}>
            Open in Issues
          </Link>
        )}
        {signal === 'traces' && (
          <Link to="/traces" search={links.traces} className={styles.open}>
            Open in Traces
          </Link>
        )}
        {signal === 'logs' && (
          <Link to="/logs" search={links.logs} className={styles.open}>
            Open in Logs
          </Link>
        )}
      </header>
      {open && (
        <div id={bodyId} className={styles.body}>
          {n === 0 ? (
            <p className={styles.none}>
              No {meta.title.toLowerCase()} were received for this release, environment and service.
            </p>
          ) : (
            <QueryBoundary
              resetKey={signal}
              pending={<PendingState label={`Loading ${meta.title.toLowerCase()}…`} />}
              renderError={(error, retry) => <ErrorState error={error} reset={retry} compact />}
            >
              <SectionBody signal={signal} row={row} />
            </QueryBoundary>
          )}
        </div>
      )}
    </section>
  );
}

function SectionBody({ signal, row }: { signal: SignalKey; row: ReleaseRow }) {
  switch (signal) {
    case 'issues':
      return <IssuesBody row={row} />;
    case 'traces':
      return <TracesBody row={row} />;
    case 'logs':
      return <LogsBody row={row} />;
    case 'actions':
      return <ActionsBody row={row} />;
    case 'metrics':
      return <MetricsBody row={row} />;
  }
}

function More({ shown, loaded, more }: { shown: number; loaded: number; more: boolean }) {
  if (!more && loaded <= shown) return null;
  return (
    <p className={styles.more}>
      Showing the newest {count(shown)}
      {more ? '; more on the page.' : ` of ${count(loaded)}; all on the page.`}
    </p>
  );
}

function IssuesBody({ row }: { row: ReleaseRow }) {
  const { data, hasNextPage } = useSuspenseInfiniteQuery(
    issuesQueries.list(releaseReadFilters(row)),
  );
  const issues = useMemo(() => data.pages.flatMap((p) => p.issues), [data]);
  const shown = issues.slice(0, SHOWN);
  return (
    <>
      <p className={styles.rule}>
        Issues whose latest occurrence is in this release (the issue list’s release filter); the row
        counts every issue with an occurrence in it.
      </p>
      {shown.length === 0 ? (
        <p className={styles.none}>
          No issue has its latest occurrence in this release: later releases saw them again.
        </p>
      ) : (
        <ul className={styles.items}>
          {shown.map((issue) => (
            <li key={issue.id} className={styles.item}>
              <SeverityBadge severity={issue.triage.effective_severity} size="sm" />
              <Link
                to="/issues/$issueId"
                params={{ issueId: issue.id }}
                className={styles.itemMain}
                title={markBidiControls(issue.title)}
              >
                <TelemetryText text={issue.title} />
              </Link>
              <span className={styles.itemMeta}>{issue.status}</span>
              <span className={styles.itemNum} title="Occurrences">
                {count(issue.occurrence_count)}×
              </span>
              <Time iso={issue.last_seen_at} />
            </li>
          ))}
        </ul>
      )}
      <More shown={shown.length} loaded={issues.length} more={hasNextPage} />
    </>
  );
}

function TracesBody({ row }: { row: ReleaseRow }) {
  const { data, hasNextPage } = useSuspenseInfiniteQuery(
    traceQueries.list(releaseReadFilters(row)),
  );
  const traces = useMemo(() => data.pages.flatMap((p) => p.traces), [data]);
  const shown = traces.slice(0, SHOWN);
  if (shown.length === 0) {
    return <p className={styles.none}>No traces with a span of this release were found.</p>;
  }
  return (
    <>
      <ul className={styles.items}>
        {shown.map((t) => (
          <li key={t.trace_id} className={styles.item}>
            <span className={styles.itemLead}>
              {t.error_span_count > 0 ? (
                <span className={styles.errorMark} title={`${t.error_span_count} error spans`}>
                  <AlertIcon size={12} /> {count(t.error_span_count)}
                </span>
              ) : (
                <span className={styles.okMark}>OK</span>
              )}
            </span>
            <Link
              to="/traces/$traceId"
              params={{ traceId: t.trace_id }}
              className={styles.itemMain}
              title={markBidiControls(t.root_span_name)}
            >
              <TelemetryText text={t.root_span_name} />
            </Link>
            <span className={styles.itemMeta}>{count(t.span_count)} spans</span>
            <span className={styles.itemNum}>{formatDuration(t.duration_ms)}</span>
            <Time iso={t.started_at} />
          </li>
        ))}
      </ul>
      <More shown={shown.length} loaded={traces.length} more={hasNextPage} />
    </>
  );
}

function LogsBody({ row }: { row: ReleaseRow }) {
  const { data, hasNextPage } = useSuspenseInfiniteQuery(logsQueries.list(releaseReadFilters(row)));
  const logs = useMemo(() => data.pages.flatMap((p) => p.logs), [data]);
  const shown = logs.slice(0, SHOWN);
  const search = releaseListSearches(row).logs;
  if (shown.length === 0) {
    return <p className={styles.none}>No active logs (ignored logs are hidden by default).</p>;
  }
  return (
    <>
      <ul className={styles.items}>
        {shown.map((log) => (
          <li key={log.id} className={styles.item}>
            <SeverityBadge severity={log.triage.effective_severity} size="sm" />
            <Link
              to="/logs"
              search={{ ...search, log: log.id }}
              className={`${styles.itemMain} ${styles.mono}`}
              title={markBidiControls(log.message)}
            >
              <TelemetryText text={log.message} />
            </Link>
            <span className={styles.itemMeta}>{log.source}</span>
            <Time iso={log.occurred_at} />
          </li>
        ))}
      </ul>
      <More shown={shown.length} loaded={logs.length} more={hasNextPage} />
    </>
  );
}

/** Actions and metric samples have no page of their own: the section pages through them. */
function ActionsBody({ row }: { row: ReleaseRow }) {
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage, isFetchNextPageError } =
    useSuspenseInfiniteQuery(actionQueries.list(releaseReadFilters(row)));
  const actions = useMemo(() => data.pages.flatMap((p) => p.actions), [data]);
  const [limit, setLimit] = useState(SHOWN);
  const shown = actions.slice(0, limit);
  return (
    <>
      <ul className={styles.items}>
        {shown.map((a) => (
          <li key={a.id} className={styles.item}>
            <span className={styles.itemLead}>
              <span className={styles.kind}>{a.kind.replace('_', ' ')}</span>
            </span>
            <span className={styles.itemMain} title={markBidiControls(a.name)}>
              <TelemetryText text={a.name} />
            </span>
            <span className={`${styles.itemMeta} ${styles.mono}`} title={`Actor ${a.distinct_id}`}>
              <TelemetryText text={a.distinct_id} />
            </span>
            <Time iso={a.occurred_at} />
          </li>
        ))}
      </ul>
      <ShowMore
        shown={shown.length}
        loaded={actions.length}
        hasNextPage={hasNextPage}
        loading={isFetchingNextPage}
        failed={isFetchNextPageError}
        onMore={() => {
          setLimit((l) => l + 20);
          if (actions.length < limit + 20 && hasNextPage) void fetchNextPage();
        }}
        noun="actions"
      />
    </>
  );
}

function MetricsBody({ row }: { row: ReleaseRow }) {
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage, isFetchNextPageError } =
    useSuspenseInfiniteQuery(metricQueries.list(releaseReadFilters(row)));
  const samples = useMemo(() => data.pages.flatMap((p) => p.metrics), [data]);
  const [limit, setLimit] = useState(SHOWN);
  const shown = samples.slice(0, limit);
  return (
    <>
      <ul className={styles.items}>
        {shown.map((m) => (
          <li key={m.id} className={styles.item}>
            <span className={styles.itemLead}>
              <span className={styles.kind}>{m.kind}</span>
            </span>
            <span className={`${styles.itemMain} ${styles.mono}`} title={markBidiControls(m.name)}>
              <TelemetryText text={m.name} />
            </span>
            <span className={styles.itemNum} title={`${m.value}${m.unit ? ` ${m.unit}` : ''}`}>
              {m.value.toLocaleString('en-US', { maximumFractionDigits: 3 })}
              {m.unit ? ` ${m.unit}` : ''}
            </span>
            <Time iso={m.occurred_at} />
          </li>
        ))}
      </ul>
      <ShowMore
        shown={shown.length}
        loaded={samples.length}
        hasNextPage={hasNextPage}
        loading={isFetchingNextPage}
        failed={isFetchNextPageError}
        onMore={() => {
          setLimit((l) => l + 20);
          if (samples.length < limit + 20 && hasNextPage) void fetchNextPage();
        }}
        noun="samples"
      />
    </>
  );
}

function ShowMore({
  shown,
  loaded,
  hasNextPage,
  loading,
  failed,
  onMore,
  noun,
}: {
  shown: number;
  loaded: number;
  hasNextPage: boolean;
  loading: boolean;
  failed: boolean;
  onMore: () => void;
  noun: string;
}) {
  const more = shown < loaded || hasNextPage;
  return (
    <div className={styles.showMore}>
      <span className={styles.more}>
        {count(shown)} newest {noun}
        {more ? '' : ' — all of them'}
      </span>
      {failed && (
        <span className={styles.failed} role="alert">
          The next page could not be loaded.
        </span>
      )}
      {more && (
        <Button size="sm" variant="ghost" onClick={onMore} disabled={loading}>
          {loading ? 'Loading…' : failed ? 'Try again' : 'Show more'}
        </Button>
      )}
    </div>
  );
}

function Time({ iso }: { iso: string }) {
  return (
    <time className={styles.itemTime} dateTime={iso} title={formatUtcDateTime(iso)}>
      {formatShortUtc(iso)}
    </time>
  );
}
