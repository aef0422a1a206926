import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { issueDetailQueries } from '../../api/queries/issue-detail';
import { projectsQueries } from '../../api/queries/projects';
import { formatUtcDateTime } from '../../lib/format-time';
import { culpritOf } from '../../lib/stack-frames';
import { ReadStamp } from '../../ui/read-stamp';
import { SeverityBadge } from '../../ui/severity-badge';
import { useDocumentTitle } from '../../ui/use-document-title';
import { ActivityTimeline } from './activity-timeline';
import { IssueAlertsSection } from './issue-alerts-section';
import { IssueControls } from './issue-controls';
import styles from './issue-detail-page.module.css';
import section from './issue-section.module.css';
import { IssueTrend } from './issue-trend';
import { OccurrenceSection } from './occurrence-section';
import { OwnershipEditor } from './ownership-editor';
import { relativeTime } from './relative-time';

/**
 * `/issues/$issueId`: the issue's header (title, culprit, triage controls), its trend (counts,
 * sightings and events over the header's range), the latest occurrence with a pager to older
 * ones, and the details and activity timeline beside them.
 * Everything the service sends is rendered as text.
 */
export function IssueDetailPage({ issueId }: { issueId: string }) {
  const client = useQueryClient();
  const detail = useSuspenseQuery(issueDetailQueries.detail(issueId));
  const issue = detail.data;
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const project = projects.find((p) => p.id === issue.project_id);
  const canManage = project?.role === 'owner' || project?.role === 'admin';
  useDocumentTitle(issue.title || 'Issue');
  const culprit = culpritOf(issue.stack_trace);

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div className={styles.crumbRow}>
          <nav className={styles.crumbs} aria-label="Breadcrumb">
            <Link to="/issues" className={styles.crumbLink}>
              Issues
            </Link>
            <span aria-hidden="true">/</span>
            <span>{project?.name ?? 'Project'}</span>
            <span aria-hidden="true">/</span>
            <code className={styles.crumbId}>{issue.id.slice(0, 8)}</code>
          </nav>
          <ReadStamp
            readAt={detail.dataUpdatedAt}
            reading={detail.isFetching}
            onReadAgain={() =>
              void client.invalidateQueries({ queryKey: issueDetailQueries.issue(issueId) })
            }
          />
        </div>
        <div className={styles.headRow}>
          <div className={styles.headText}>
            <h1 className={styles.title} title={markBidiControls(issue.title)}>
              <TelemetryText text={issue.title} />
            </h1>
            <p className={styles.culprit}>
              {culprit !== null ? (
                <code>
                  <TelemetryText text={culprit} />
                </code>
              ) : (
                <span>
                  <TelemetryText text={issue.message} />
                </span>
              )}
            </p>
            <p className={styles.tags}>
              <SeverityBadge
                severity={issue.triage.effective_severity}
                captured={issue.severity}
                size="sm"
              />
              <Tag label="service" value={issue.service_name} />
              <Tag label="env" value={issue.environment} />
              <Tag label="release" value={issue.release} />
            </p>
          </div>
        </div>
        <IssueControls issue={issue} canManage={canManage} />
      </header>
      <div className={styles.body}>
        <main className={styles.main}>
          <IssueTrend issue={issue} />
          <OccurrenceSection issue={issue} />
          <OwnershipEditor
            issueId={issue.id}
            projectId={issue.project_id}
            projectName={project?.name ?? 'this project'}
            canManage={canManage}
          />
        </main>
        <aside className={styles.side} aria-label="Issue details">
          <section className={section.sideSection}>
            <h2 className={section.sectionTitle}>Details</h2>
            <dl className={styles.facts}>
              <dt>First seen</dt>
              <dd title={formatUtcDateTime(issue.first_seen_at)}>
                {relativeTime(issue.first_seen_at)}
                <span className={styles.factSub}>{formatUtcDateTime(issue.first_seen_at)}</span>
              </dd>
              <dt>Last seen</dt>
              <dd title={formatUtcDateTime(issue.last_seen_at)}>
                {relativeTime(issue.last_seen_at)}
                <span className={styles.factSub}>{formatUtcDateTime(issue.last_seen_at)}</span>
              </dd>
              <dt>Events</dt>
              <dd className={styles.num}>{issue.occurrence_count.toLocaleString('en-US')}</dd>
              <dt>Environment</dt>
              <dd>
                <TelemetryText text={issue.environment} />
              </dd>
              <dt>Release</dt>
              <dd className={styles.mono}>
                <TelemetryText text={issue.release} />
              </dd>
              <dt>Service</dt>
              <dd>
                <TelemetryText text={issue.service_name} />
              </dd>
              <dt>Project</dt>
              <dd>{project?.name ?? issue.project_id}</dd>
              <dt>Fingerprint</dt>
              <dd className={styles.mono}>
                <TelemetryText text={issue.fingerprint} />
              </dd>
            </dl>
          </section>
          <IssueAlertsSection issue={issue} />
          <ActivityTimeline issueId={issue.id} />
        </aside>
      </div>
    </div>
  );
}

function Tag({ label, value }: { label: string; value: string }) {
  return (
    <span className={styles.tag}>
      <span className={styles.tagKey}>{label}</span>
      <span className={styles.tagValue}>
        <TelemetryText text={value} />
      </span>
    </span>
  );
}
