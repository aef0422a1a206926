import { useInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { alertQueries, type AlertRule } from '../../api/queries/alerts';
import { projectsQueries, type Project } from '../../api/queries/projects';
import { oneProjectChoices, oneProjectOf, scopeIsOneProject } from '../../lib/one-project';
import { Button, buttonClass } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { BellIcon, PlusIcon } from '../../ui/icons';
import { OneProjectPicker } from '../../ui/one-project-picker';
import { PendingState } from '../../ui/pending-state';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useTickingNow } from '../../ui/use-ticking-now';
import { AlertsFrame } from './alerts-frame';
import { KIND_LABELS } from './rule-draft';
import { newRulePermission, rulePermission } from './rule-permission';
import { ruleState } from './rule-state';
import { ruleSummary } from './rule-summary';
import styles from './alerts-tables.module.css';
import { PROJECTS_LISTED } from './projects-listed';

const route = getRouteApi('/_app/alerts/');

/**
 * `/alerts`: the alert rules of one project, with what each watches, whether it is firing,
 * muted or off, and where it notifies; with several projects in scope and none picked, the
 * rules of each, project by project. Members see the list; the New button says why they
 * cannot create one.
 */
export function RulesPage() {
  useDocumentTitle('Alert rules');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readable = projects.map((p) => p.id);
  const projectId = oneProjectOf(search, search.alert_project, readable);
  const project = projects.find((p) => p.id === projectId);
  const choices = oneProjectChoices(search, projects);
  const permission =
    projectId === null
      ? newRulePermission(projects.filter((p) => choices.some((c) => c.id === p.id)))
      : rulePermission(project);

  const newRule = (
    <div className={styles.headerActions}>
      <Link
        to="/alerts/new"
        search={{ kind: 'log', ...(projectId ? { project: projectId } : {}) }}
        className={buttonClass('primary')}
        aria-disabled={!permission.allowed || undefined}
        onClick={(e) => {
          if (!permission.allowed) e.preventDefault();
        }}
        title={permission.allowed ? undefined : permission.reason}
      >
        <PlusIcon />
        New alert rule
      </Link>
    </div>
  );

  return (
    <AlertsFrame
      title="Alerts"
      subtitle="Rules that watch issues, logs, metrics and traces, and tell the inbox or a webhook when something breaks. Times are UTC."
      actions={newRule}
    >
      {!scopeIsOneProject(search, readable) && (
        <OneProjectPicker
          choices={choices}
          value={projectId}
          allLabel="Every project in scope"
          onChange={(id) => void navigate({ search: (prev) => ({ ...prev, alert_project: id }) })}
        />
      )}
      {project !== undefined && !permission.allowed && (
        <p className={styles.note} role="status">
          {permission.reason}
        </p>
      )}
      {projectId === null ? (
        <RulesByProject choices={choices} projects={projects} />
      ) : (
        <RuleList projectId={projectId} canCreate={permission.allowed} />
      )}
    </AlertsFrame>
  );
}

/** The rules of each project in scope, one section per project (the first few). */
function RulesByProject({
  choices,
  projects,
}: {
  choices: readonly { id: string; name: string }[];
  projects: readonly Project[];
}) {
  if (choices.length === 0)
    return (
      <EmptyState icon={<BellIcon />} title="No project in scope">
        Alert rules belong to a project. Select a project in the header.
      </EmptyState>
    );
  const listed = choices.slice(0, PROJECTS_LISTED);
  return (
    <div className={styles.groups}>
      {listed.map((p) => (
        <section key={p.id} className={styles.group} aria-label={`Rules of ${p.name}`}>
          <h2 className={styles.groupTitle}>{p.name}</h2>
          <RuleList
            projectId={p.id}
            canCreate={rulePermission(projects.find((q) => q.id === p.id)).allowed}
            compact
          />
        </section>
      ))}
      {choices.length > listed.length && (
        <p className={styles.note} role="status">
          {choices.length - listed.length} more projects are in scope: choose one in the Project
          field to see its rules.
        </p>
      )}
    </div>
  );
}

function RuleList({
  projectId,
  canCreate,
  compact = false,
}: {
  projectId: string;
  canCreate: boolean;
  /** Listed beside other projects: an empty list is one line, not a call to action. */
  compact?: boolean;
}) {
  const query = useInfiniteQuery(alertQueries.rules(projectId));
  const now = useTickingNow(30_000);
  if (query.isPending) return <PendingState label="Loading alert rules…" />;
  if (query.isError) return <ErrorState error={query.error} reset={() => void query.refetch()} />;
  const rules = query.data.pages.flatMap((p) => p.rules);
  if (rules.length === 0 && compact)
    return (
      <div className={styles.panel}>
        <p className={styles.emptyLine}>No alert rules in this project.</p>
      </div>
    );
  if (rules.length === 0) {
    return (
      <div className={styles.panel}>
        <EmptyState
          icon={<BellIcon />}
          title="No alert rules in this project"
          action={
            canCreate ? (
              <Link
                to="/alerts/new"
                search={{ kind: 'log', project: projectId }}
                className={buttonClass('primary', 'sm')}
              >
                New alert rule
              </Link>
            ) : undefined
          }
        >
          A rule watches new issues, a logs query, a metric or a service’s traces, and notifies the
          inbox or a webhook once when it starts firing and once when it resolves. From the logs
          explorer, “Create alert” turns the view on screen into a rule.
        </EmptyState>
      </div>
    );
  }
  return (
    <div className={styles.panel}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Kind</th>
            <th scope="col">State</th>
            <th scope="col">Notifies</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <RuleRow key={rule.id} rule={rule} now={now} />
          ))}
        </tbody>
      </table>
      {query.hasNextPage && (
        <div className={styles.more}>
          <Button
            size="sm"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Show more rules'}
          </Button>
        </div>
      )}
    </div>
  );
}

function notifiesText(rule: AlertRule): string {
  const parts: string[] = [];
  if (rule.notify.inbox !== null)
    parts.push('user_id' in rule.notify.inbox ? 'a person’s inbox' : 'a team’s inbox');
  const n = rule.notify.webhook_ids.length;
  if (n > 0) parts.push(n === 1 ? '1 webhook' : `${n} webhooks`);
  return parts.length === 0 ? 'Nobody (history only)' : parts.join(', ');
}

function RuleRow({ rule, now }: { rule: AlertRule; now: number }) {
  const state = ruleState(rule, now);
  return (
    <tr>
      <td className={styles.wrapCell}>
        <Link to="/alerts/rules/$ruleId" params={{ ruleId: rule.id }} className={styles.nameLink}>
          {rule.name}
        </Link>
        <span className={styles.sub}>{ruleSummary(rule)}</span>
      </td>
      <td>{KIND_LABELS[rule.kind]}</td>
      <td>
        <span className={styles.state} data-tone={state.tone}>
          {state.text}
        </span>
      </td>
      <td>{notifiesText(rule)}</td>
    </tr>
  );
}
