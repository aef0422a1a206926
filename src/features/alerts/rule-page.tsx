import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { alertMutations, alertQueries } from '../../api/queries/alerts';
import { projectsQueries } from '../../api/queries/projects';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ReadBoundary } from '../../ui/read-boundary';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useTickingNow } from '../../ui/use-ticking-now';
import { WriteFailure } from '../../ui/write-failure';
import { AlertsFrame } from './alerts-frame';
import styles from './alerts-page.module.css';
import tables from './alerts-tables.module.css';
import { IncidentTable } from './incident-table';
import { MuteControl } from './mute-control';
import { draftOfRule } from './rule-draft';
import { RuleEditor } from './rule-editor';
import { rulePermission } from './rule-permission';
import { ruleState } from './rule-state';

const route = getRouteApi('/_app/alerts/rules/$ruleId');

/** `/alerts/rules/$ruleId`: one rule, its state, mute, its recent incidents, and its editor. */
export function RulePage() {
  return (
    <ReadBoundary resetKey={route.useParams().ruleId} label="Loading the rule…">
      <RuleView />
    </ReadBoundary>
  );
}

function RuleView() {
  const { ruleId } = route.useParams();
  const navigate = useNavigate();
  const { data: rule } = useSuspenseQuery(alertQueries.rule(ruleId));
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  useDocumentTitle(`${rule.name} · Alerts`);
  const permission = rulePermission(projects.find((p) => p.id === rule.project_id));
  const now = useTickingNow(30_000);
  const state = ruleState(rule, now);
  const remove = useMutation(alertMutations.deleteRule(rule.id));
  const [confirming, setConfirming] = useState(false);
  return (
    <AlertsFrame
      title={rule.name}
      tabs={false}
      subtitle={
        <>
          <span className={tables.state} data-tone={state.tone}>
            {state.text}
          </span>{' '}
          <Link to="/alerts" className={styles.link}>
            All rules
          </Link>
        </>
      }
      actions={
        <div className={styles.ruleActions}>
          <MuteControl rule={rule} permission={permission} />
          <Button
            size="sm"
            variant="danger"
            disabled={!permission.allowed}
            title={permission.allowed ? undefined : permission.reason}
            onClick={() => setConfirming(true)}
          >
            Delete rule
          </Button>
        </div>
      }
    >
      {rule.last_error && (
        <Callout
          tone="warning"
          role="status"
          title={`The last evaluation failed (${formatUtcDateTime(rule.last_error.at)})`}
        >
          <p>{rule.last_error.error}</p>
          <p>{rule.last_error.next}</p>
        </Callout>
      )}
      <section className={styles.section} aria-labelledby="rule-incidents">
        <div className={styles.sectionHead}>
          <h2 id="rule-incidents" className={styles.sectionTitle}>
            Incidents
          </h2>
          <Link
            to="/alerts/history"
            search={{ rule: rule.id, alert_project: rule.project_id }}
            className={styles.link}
          >
            Full history
          </Link>
        </div>
        <IncidentTable
          filters={{ project_id: rule.project_id, rule_id: rule.id }}
          showRule={false}
          emptyText="This rule has not fired. The preview below shows where it would have over the last 24 hours."
        />
      </section>
      <RuleEditor
        key={rule.updated_at}
        initial={draftOfRule(rule)}
        rule={rule}
        projects={projects}
        onSaved={() => window.scrollTo({ top: 0 })}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete “${rule.name}”?`}
        description="The rule stops evaluating and notifying. Its past incidents stay in the history."
        confirmLabel="Delete rule"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () =>
              void navigate({ to: '/alerts', search: { alert_project: rule.project_id } }),
          })
        }
      >
        {remove.isError && <WriteFailure error={remove.error} idempotent />}
      </ConfirmDialog>
    </AlertsFrame>
  );
}
