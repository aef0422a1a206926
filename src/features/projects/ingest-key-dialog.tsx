import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { projectsMutations, type IngestKey, type Project } from '../../api/queries/projects';
import { nextSubmission, type IdempotentSubmission } from '../../lib/idempotency-key';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { CopyButton } from '../../ui/copy-button';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { DialogActions, Modal, SubmitActions } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import styles from './projects.module.css';

/**
 * Creates an ingest key for a project and shows its value once. The value lives only in this
 * dialog's state: closing the dialog drops it, and it is never shown again.
 */
export function IngestKeyDialog({
  project,
  onClose,
}: {
  project: Project | null;
  onClose: () => void;
}) {
  const [created, setCreated] = useState<IngestKey | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Modal
      open={project !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={created ? 'Ingest key created' : 'Create ingest key'}
      description={
        created ? undefined : (
          <>
            For project <strong>{project?.name}</strong>. SDKs and services send telemetry to this
            project with the key; it cannot read anything.
          </>
        )
      }
      wide={created !== null}
      // While the key is shown, only the buttons close the dialog, never a stray click.
      onPointerDownOutside={created ? (event) => event.preventDefault() : undefined}
    >
      {project &&
        (created ? (
          <RevealKey ingestKey={created} projectName={project.name} onDone={close} />
        ) : (
          <CreateKeyForm project={project} onCancel={close} onCreated={setCreated} />
        ))}
    </Modal>
  );
}

function CreateKeyForm({
  project,
  onCancel,
  onCreated,
}: {
  project: Project;
  onCancel: () => void;
  onCreated: (key: IngestKey) => void;
}) {
  const create = useMutation(projectsMutations.createIngestKey());
  const submission = useRef<IdempotentSubmission | null>(null);
  const [name, setName] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { projectId: project.id, name: name.trim() || undefined };
    submission.current = nextSubmission(submission.current, body);
    create.mutate(
      { ...body, idempotencyKey: submission.current.key },
      {
        onSuccess: (key) => {
          // Keep the secret out of the mutation cache: it lives in the dialog only.
          create.reset();
          onCreated(key);
        },
      },
    );
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Key name"
        name="name"
        placeholder="Ingest key"
        maxLength={100}
        autoComplete="off"
        autoFocus
        value={name}
        onChange={(e) => setName(e.target.value)}
        hint="Optional. Helps you recognize the key later, e.g. “production web”."
      />
      {create.isError && (
        <WriteFailure
          error={create.error}
          idempotent
          unknownOutcome="The key may or may not have been created."
        />
      )}
      <SubmitActions
        onCancel={onCancel}
        pending={create.isPending}
        label="Create key"
        pendingLabel="Creating…"
      />
    </form>
  );
}

function curlExample(key: string): string {
  return [
    `curl -X POST '${window.location.origin}/v1/events' \\`,
    `  -H 'Authorization: Bearer ${key}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data @events.json`,
  ].join('\n');
}

type SendWith = 'otel' | 'sdk';
const SEND_WITH = [
  { value: 'otel', label: 'OpenTelemetry' },
  { value: 'sdk', label: 'Lookout SDK batch' },
] as const satisfies readonly { value: SendWith; label: string }[];

/** The standard OpenTelemetry exporter settings (any OTel SDK or Collector reads them). */
function otelExample(key: string, projectName: string): string {
  return [
    `OTEL_EXPORTER_OTLP_ENDPOINT=${window.location.origin}/otlp`,
    `OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20${key}`,
    `OTEL_SERVICE_NAME=${projectName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    `OTEL_RESOURCE_ATTRIBUTES=service.version=1.0.0,deployment.environment.name=production`,
  ].join('\n');
}

function RevealKey({
  ingestKey,
  projectName,
  onDone,
}: {
  ingestKey: IngestKey;
  projectName: string;
  onDone: () => void;
}) {
  const example = curlExample(ingestKey.key);
  const otel = otelExample(ingestKey.key, projectName);
  const [via, setVia] = useState<SendWith>('otel');
  return (
    <div className={styles.reveal}>
      <Callout tone="warning" role="status" title="Copy this key now">
        It will not be shown again. Store it where your application reads its configuration; if it
        is lost, create a new key.
      </Callout>

      <div className={styles.secretField}>
        <div className={styles.secretHead}>
          <span id="ingest-key-label">Ingest key</span>
          <CopyButton value={ingestKey.key} label="Copy key" />
        </div>
        <code className={styles.secret} aria-labelledby="ingest-key-label" tabIndex={0}>
          {ingestKey.key}
        </code>
      </div>

      <dl className={styles.keyFacts}>
        <dt>Project</dt>
        <dd>{projectName}</dd>
        <dt>Name</dt>
        <dd>{ingestKey.name}</dd>
        <dt>Prefix</dt>
        <dd>
          <code>{ingestKey.key_prefix}</code>
        </dd>
        <dt>Expires</dt>
        <dd>{ingestKey.expires_at ? formatUtcDateTime(ingestKey.expires_at) : 'Never'}</dd>
      </dl>

      <SegmentedChoice
        label="Send with"
        caption="Send with"
        value={via}
        options={SEND_WITH}
        onChange={setVia}
      />
      {via === 'otel' ? (
        <div className={styles.secretField}>
          <div className={styles.secretHead}>
            <span id="ingest-key-otel">OpenTelemetry SDK or Collector</span>
            <CopyButton value={otel} label="Copy settings" />
          </div>
          <pre className={styles.example} aria-labelledby="ingest-key-otel" tabIndex={0}>
            {otel}
          </pre>
          <p className={styles.hint}>
            OTLP over HTTP, protobuf or JSON. Set your service&rsquo;s own version and environment:
            telemetry without them is not accepted.
          </p>
        </div>
      ) : (
        <div className={styles.secretField}>
          <div className={styles.secretHead}>
            <span id="ingest-key-example">Example request</span>
            <CopyButton value={example} label="Copy command" />
          </div>
          <pre className={styles.example} aria-labelledby="ingest-key-example" tabIndex={0}>
            {example}
          </pre>
          <p className={styles.hint}>
            Send the key in the <code>Authorization: Bearer</code> header. It only works for{' '}
            {projectName}.
          </p>
        </div>
      )}

      <DialogActions>
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </DialogActions>
    </div>
  );
}
