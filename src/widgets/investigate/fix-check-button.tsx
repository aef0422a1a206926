import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { investigationQueries } from '../../api/queries/investigations';
import { deploymentQueries, type Deployment } from '../../api/queries/releases';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ErrorState } from '../../ui/error-state';
import field from '../../ui/labelled-field.module.css';
import { DialogActions, Modal } from '../../ui/modal';
import { PendingState } from '../../ui/pending-state';
import { assistantCallOf } from '../assistant-fetch/assistant-call';
import { AssistantFetchLine } from '../assistant-fetch/assistant-fetch-line';
import { CoverageSummary } from './coverage-summary';
import styles from './evidence.module.css';
import { VerdictEvidence } from './verdict-evidence';

type Baseline = {
  id: string;
  occurredAt: string;
  release: string;
  environment: string;
  serviceName: string;
};

/**
 * "Did the fix work?": a deployment of the issue's project (newest first) against a baseline
 * occurrence (the one being viewed), answered by the service's correction verification.
 */
export function FixCheckButton({
  issueId,
  projectId,
  baseline,
}: {
  issueId: string;
  projectId: string;
  baseline: Baseline;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        Did the fix work?
      </Button>
      <Modal
        open={open}
        onOpenChange={setOpen}
        wide
        title="Did the fix work?"
        description="Checks whether this issue came back after a deployment, counted from a baseline occurrence."
      >
        {open && (
          <FixCheck
            issueId={issueId}
            projectId={projectId}
            baseline={baseline}
            onClose={() => setOpen(false)}
          />
        )}
      </Modal>
    </>
  );
}

function FixCheck({
  issueId,
  projectId,
  baseline,
  onClose,
}: {
  issueId: string;
  projectId: string;
  baseline: Baseline;
  onClose: () => void;
}) {
  const id = useId();
  const history = useQuery(deploymentQueries.history({ project_id: projectId }));
  const [picked, setPicked] = useState('');
  const [checked, setChecked] = useState<string | null>(null);
  const deployments = history.data?.deployments ?? [];
  // Only a deployment of the baseline's service and environment can answer; those come first.
  const matches = (d: Deployment) =>
    d.service_name === baseline.serviceName && d.environment === baseline.environment;
  const same = deployments.filter(matches);
  const other = deployments.filter((d) => !matches(d));
  const chosen = picked || same[0]?.deployment_id || deployments[0]?.deployment_id || '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) setChecked(chosen);
  };

  return (
    <form className={styles.section} onSubmit={submit}>
      <p className={styles.muted}>
        Baseline: the occurrence you are viewing, {formatUtcDateTime(baseline.occurredAt)} on{' '}
        <code className={styles.mono}>
          <TelemetryText text={baseline.release} />
        </code>
        . Page to another occurrence to use it as the baseline.
      </p>
      {history.isPending ? (
        <PendingState label="Reading the project’s deployments…" />
      ) : history.isError ? (
        <ErrorState error={history.error} compact reset={() => void history.refetch()} />
      ) : deployments.length === 0 ? (
        <p>
          No deployment of this project is recorded. Record one on its release page, then check
          again.
        </p>
      ) : (
        <div className={field.field}>
          <label className={field.label} htmlFor={`${id}-deployment`}>
            Deployment (newest first)
          </label>
          <select
            id={`${id}-deployment`}
            className={field.select}
            value={chosen}
            onChange={(e) => {
              setPicked(e.target.value);
              setChecked(null);
            }}
          >
            {same.length > 0 && (
              <optgroup label={`${baseline.serviceName} in ${baseline.environment}`}>
                {same.map((d) => (
                  <DeploymentOption key={d.deployment_id} deployment={d} />
                ))}
              </optgroup>
            )}
            {other.length > 0 && (
              <optgroup label="Other services or environments">
                {other.map((d) => (
                  <DeploymentOption key={d.deployment_id} deployment={d} />
                ))}
              </optgroup>
            )}
          </select>
          {!history.data.complete && (
            <span className={field.hint}>Only the newest deployments are listed.</span>
          )}
        </div>
      )}
      {checked !== null && (
        <Verdict issueId={issueId} baselineId={baseline.id} deploymentId={checked} />
      )}
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button type="submit" variant="primary" disabled={!chosen}>
          Check
        </Button>
      </DialogActions>
    </form>
  );
}

function DeploymentOption({ deployment: d }: { deployment: Deployment }) {
  return (
    <option value={d.deployment_id}>
      {d.release} · {d.service_name} · {d.environment} · {d.status} · finished{' '}
      {formatUtcDateTime(d.finished_at)}
    </option>
  );
}

function Verdict({
  issueId,
  baselineId,
  deploymentId,
}: {
  issueId: string;
  baselineId: string;
  deploymentId: string;
}) {
  const query = investigationQueries.correction(issueId, baselineId, deploymentId);
  const read = useQuery(query);
  const assistantCall = assistantCallOf(query.meta);
  if (read.isPending) return <PendingState label="Checking…" />;
  if (read.isError)
    return <ErrorState error={read.error} compact reset={() => void read.refetch()} />;
  return (
    <section className={styles.section} aria-label="Verdict">
      <CoverageSummary coverage={read.data.coverage} />
      <VerdictEvidence result={read.data} />
      {assistantCall && <AssistantFetchLine call={assistantCall} />}
    </section>
  );
}
