import { TelemetryText } from '../../ui/telemetry-text';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/errors';
import {
  deploymentQueries,
  releasesMutations,
  type RecordDeploymentResult,
  type ReleaseRow,
} from '../../api/queries/releases';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { Modal, SubmitActions } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import {
  buildDeploymentRequest,
  fromUtcInputValue,
  initialDeploymentValues,
  suggestDeploymentId,
  valuesOfDeployment,
  type DeploymentFormErrors,
  type DeploymentFormValues,
  type DeploymentStatusValue,
} from './deployment-form';
import styles from './record-deployment-dialog.module.css';

/**
 * "Record deployment" for one release row: the row's project, release, environment and
 * service are fixed; the id (the retry key), status, UTC times and commit are the form's.
 */
export function RecordDeploymentDialog({
  open,
  onOpenChange,
  row,
  projectName,
  onRecorded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  row: ReleaseRow;
  projectName: string;
  onRecorded: (result: RecordDeploymentResult) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      wide
      title="Record deployment"
      description="The deployment id is its retry key: sending the same id with the same values again records nothing new."
    >
      <RecordDeploymentForm
        row={row}
        projectName={projectName}
        onCancel={() => onOpenChange(false)}
        onRecorded={onRecorded}
      />
    </Modal>
  );
}

function RecordDeploymentForm({
  row,
  projectName,
  onCancel,
  onRecorded,
}: {
  row: ReleaseRow;
  projectName: string;
  onCancel: () => void;
  onRecorded: (result: RecordDeploymentResult) => void;
}) {
  const id = useId();
  const record = useMutation(releasesMutations.recordDeployment());
  const [values, setValues] = useState<DeploymentFormValues>(() =>
    initialDeploymentValues(row, new Date()),
  );
  // Field problems are shown once a submit was tried, then follow the typing.
  const [checked, setChecked] = useState(false);
  const request = buildDeploymentRequest(row, values);
  const errors: DeploymentFormErrors = checked && !request.ok ? request.errors : {};
  // A failure is explained below the fields: bring it and the buttons into view.
  const form = useRef<HTMLFormElement>(null);
  const reveal = useCallback(
    () => form.current?.lastElementChild?.scrollIntoView({ block: 'nearest' }),
    [],
  );
  useEffect(() => {
    if (record.error) reveal();
  }, [record.error, reveal]);
  const set = <K extends keyof DeploymentFormValues>(key: K, value: DeploymentFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!request.ok) return;
    // The same id and body are sent again on a retry: the id is the service's retry key.
    record.mutate(
      { deploymentId: request.deploymentId, body: request.body },
      { onSuccess: onRecorded },
    );
  };

  const conflict =
    record.error instanceof ApiError && record.error.code === 'idempotency_conflict'
      ? { error: record.error, id: record.variables?.deploymentId ?? values.deploymentId }
      : null;
  const forbidden = record.error instanceof ApiError && record.error.status === 403;

  return (
    <form
      ref={form}
      className={styles.form}
      onSubmit={submit}
      noValidate
      aria-label="Record deployment"
    >
      <dl className={styles.target}>
        <div>
          <dt>Release</dt>
          <dd className={styles.mono}>
            <TelemetryText text={row.release} />
          </dd>
        </div>
        <div>
          <dt>Environment</dt>
          <dd>
            <TelemetryText text={row.environment} />
          </dd>
        </div>
        <div>
          <dt>Service</dt>
          <dd>
            <TelemetryText text={row.service_name} />
          </dd>
        </div>
        <div>
          <dt>Project</dt>
          <dd>{projectName}</dd>
        </div>
      </dl>

      <TextField
        label="Deployment id"
        name="deployment_id"
        className={styles.idField}
        autoComplete="off"
        spellCheck={false}
        autoFocus
        value={values.deploymentId}
        onChange={(e) => set('deploymentId', e.target.value)}
        error={errors.deploymentId}
        hint="Up to 128 letters, digits, “.”, “_”, “~” or “-”, starting with a letter or digit. A new deployment needs a new id."
      />

      <div className={styles.pair}>
        <TextField
          label="Started at (UTC)"
          name="started_at"
          type="datetime-local"
          step={1}
          value={values.startedAt}
          onChange={(e) => set('startedAt', e.target.value)}
          error={errors.startedAt}
          hint={utcHint(values.startedAt)}
        />
        <TextField
          label="Finished at (UTC)"
          name="finished_at"
          type="datetime-local"
          step={1}
          value={values.finishedAt}
          onChange={(e) => set('finishedAt', e.target.value)}
          error={errors.finishedAt}
          hint={utcHint(values.finishedAt)}
        />
      </div>

      <div className={styles.pair}>
        <fieldset className={styles.status}>
          <legend className={styles.legend}>Status</legend>
          <div className={styles.radios}>
            {(['succeeded', 'failed'] as const).map((s: DeploymentStatusValue) => (
              <label key={s} className={styles.radio}>
                <input
                  type="radio"
                  name={`${id}-status`}
                  value={s}
                  checked={values.status === s}
                  onChange={() => set('status', s)}
                />
                {s === 'succeeded' ? 'Succeeded' : 'Failed'}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField
          label="Commit sha (optional)"
          name="commit_sha"
          className={styles.shaField}
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. 3f9a1c2"
          value={values.commitSha}
          onChange={(e) => set('commitSha', e.target.value)}
          error={errors.commitSha}
          hint="7 to 64 hex characters."
        />
      </div>

      {checked && !request.ok && (
        <p className={styles.fix} role="alert">
          Fix the {Object.keys(request.errors).length === 1 ? 'field' : 'fields'} marked above;
          nothing was sent.
        </p>
      )}

      {record.isError &&
        (conflict ? (
          <ConflictExplanation
            error={conflict.error}
            projectId={row.project_id}
            deploymentId={conflict.id}
            onUseRecorded={(recorded) => setValues(recorded)}
            onUseNewId={() => set('deploymentId', suggestDeploymentId(row, new Date()))}
            onShown={reveal}
          />
        ) : forbidden ? (
          <Callout tone="danger" role="alert" title="Only owners can record deployments">
            <p>
              Your role in this project’s organization does not allow it. Ask an owner of the
              organization to record this deployment.
            </p>
            <ServiceWords error={record.error as ApiError} />
          </Callout>
        ) : (
          <WriteFailure
            error={record.error}
            idempotent
            unknownOutcome="The deployment may or may not have been recorded."
          />
        ))}

      <SubmitActions
        onCancel={onCancel}
        pending={record.isPending}
        label="Record deployment"
        pendingLabel="Recording…"
      />
    </form>
  );
}

/** What a datetime field is read as: the instant in UTC, so the local display cannot mislead. */
function utcHint(value: string): string {
  const iso = fromUtcInputValue(value);
  return iso === null ? 'Date and time in UTC.' : `Read as ${formatUtcDateTime(iso)}.`;
}

/** The service's own words (`error`, `next`), shown as text, then status and code. */
function ServiceWords({ error }: { error: ApiError }) {
  return (
    <div className={styles.serviceWords}>
      <p>
        <span className={styles.said}>The service said:</span> {error.message}
      </p>
      {error.next !== undefined && <p>{error.next}</p>}
      <p className={styles.meta}>
        HTTP {error.status}
        {error.code !== undefined && <> · {error.code}</>}
      </p>
    </div>
  );
}

/**
 * `409 idempotency_conflict`: the id already holds a different deployment. Says so in plain
 * words, shows what is recorded under the id, and offers both ways out.
 */
function ConflictExplanation({
  error,
  projectId,
  deploymentId,
  onUseRecorded,
  onUseNewId,
  onShown,
}: {
  error: ApiError;
  projectId: string;
  deploymentId: string;
  onUseRecorded: (values: DeploymentFormValues) => void;
  onUseNewId: () => void;
  /** Called when the recorded values arrive and the explanation grows. */
  onShown: () => void;
}) {
  const stored = useQuery(deploymentQueries.detail(projectId, deploymentId));
  useEffect(() => {
    if (stored.data) onShown();
  }, [stored.data, onShown]);
  return (
    <Callout
      tone="warning"
      role="alert"
      title="This deployment id was already recorded with different values"
    >
      <p>
        Nothing was changed. Deployment <code className={styles.code}>{deploymentId}</code> already
        holds a deployment, and the values you sent differ from it. Either send the original values
        again, or choose a new id if this is a new deployment.
      </p>
      {stored.data && (
        <p className={styles.recorded}>
          Recorded: {stored.data.status === 'succeeded' ? 'succeeded' : 'failed'}, started{' '}
          {formatUtcDateTime(stored.data.started_at)}, finished{' '}
          {formatUtcDateTime(stored.data.finished_at)},{' '}
          {stored.data.commit_sha === null ? 'no commit' : `commit ${stored.data.commit_sha}`}.
        </p>
      )}
      <ServiceWords error={error} />
      <div className={styles.conflictActions}>
        {stored.data && (
          <Button
            size="sm"
            onClick={() => {
              if (stored.data) onUseRecorded(valuesOfDeployment(stored.data));
            }}
          >
            Fill in the recorded values
          </Button>
        )}
        <Button size="sm" onClick={onUseNewId}>
          Use a new id
        </Button>
      </div>
    </Callout>
  );
}
