import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { usageQueries, type AccountUsage } from '../../api/queries/account';
import { projectsQueries } from '../../api/queries/projects';
import { formatBytes } from '../../lib/format-bytes';
import { formatUtcDateTime } from '../../lib/format-time';
import { ReportSection } from '../../ui/report-section';
import { QuotaBanner } from './quota-banner';
import { STREAM_LABELS } from './usage-history-data';
import styles from './usage-page.module.css';

const count = (n: number) => n.toLocaleString('en-US');

/** The current period: the quota state first, then totals, per stream, per project, dropped. */
export function CurrentUsage() {
  const query = useSuspenseQuery(usageQueries.current());
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const usage = query.data;
  const names = useMemo(() => new Map(projects.map((p) => [p.id, p.name])), [projects]);
  const nameOf = (id: string) => names.get(id) ?? id;
  const stale = query.isRefetchError;
  return (
    <>
      <QuotaBanner
        usage={usage}
        staleSince={stale ? query.dataUpdatedAt : null}
        staleError={stale ? query.error : null}
      />
      <ReportSection
        title="This period"
        note={`Usage period: the calendar month, ${formatUtcDateTime(usage.period_start)} to ${formatUtcDateTime(usage.period_end)}; allowances reset then. Plan ${usage.plan.tier}, ${usage.plan.status.replace('_', ' ')}.`}
      >
        <dl className={styles.totals}>
          <div className={styles.total}>
            <dt>Events</dt>
            <dd>{count(usage.usage.events)}</dd>
          </div>
          <div className={styles.total}>
            <dt>Bytes</dt>
            <dd>{formatBytes(usage.usage.bytes)}</dd>
          </div>
          <div className={styles.total}>
            <dt>Projects owned</dt>
            <dd>{count(usage.usage.projects)}</dd>
          </div>
          <div className={styles.total}>
            <dt>Retention</dt>
            <dd>
              {usage.limits.retention_days === null
                ? 'not set'
                : `${usage.limits.retention_days} days`}
            </dd>
          </div>
        </dl>
        <div className={styles.tables}>
          <UsageTable
            caption="By stream"
            firstColumn="Stream"
            rows={usage.by_stream.map((s) => ({ key: s.kind, label: STREAM_LABELS[s.kind], ...s }))}
          />
          <UsageTable
            caption="By project"
            firstColumn="Project"
            empty="This account owns no project, so nothing is counted for it."
            rows={[...usage.by_project]
              .sort(
                (a, b) =>
                  b.events - a.events || nameOf(a.project_id).localeCompare(nameOf(b.project_id)),
              )
              .map((p) => ({ key: p.project_id, label: nameOf(p.project_id), ...p }))}
          />
        </div>
      </ReportSection>
      <DroppedEvents usage={usage} nameOf={nameOf} />
    </>
  );
}

/** Events and bytes per row (stream or project); an empty list says why it is empty. */
function UsageTable({
  caption,
  firstColumn,
  rows,
  empty,
}: {
  caption: string;
  firstColumn: string;
  rows: { key: string; label: string; events: number; bytes: number }[];
  empty?: string;
}) {
  return (
    <table className={styles.table}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{firstColumn}</th>
          <th scope="col" className={styles.number}>
            Events
          </th>
          <th scope="col" className={styles.number}>
            Bytes
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty ? (
          <tr>
            <td colSpan={3} className={styles.none}>
              {empty}
            </td>
          </tr>
        ) : (
          rows.map((r) => (
            <tr key={r.key}>
              <td>{r.label}</td>
              <td className={styles.number}>{count(r.events)}</td>
              <td className={styles.number}>{formatBytes(r.bytes)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

function DroppedEvents({ usage, nameOf }: { usage: AccountUsage; nameOf: (id: string) => string }) {
  const rows = usage.sdk_dropped_events ?? [];
  const total = rows.reduce((n, r) => n + r.events, 0);
  return (
    <ReportSection
      title="Dropped by SDKs"
      note="Events SDKs reported dropping before delivery (full buffers, sampling, offline). They never reached the service, are not billed and are not part of the usage above."
    >
      {rows.length === 0 ? (
        <p className={styles.none}>No SDK reported dropped events this period.</p>
      ) : (
        <table className={styles.table}>
          <caption>
            {count(total)} {total === 1 ? 'event' : 'events'} dropped this period
          </caption>
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Reason</th>
              <th scope="col" className={styles.number}>
                Events
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.project_id}:${r.reason}`}>
                <td>{nameOf(r.project_id)}</td>
                <td className={styles.mono}>{r.reason}</td>
                <td className={styles.number}>{count(r.events)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ReportSection>
  );
}
