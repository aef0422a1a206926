import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { projectsMutations, type IngestKey, type Project } from '../../api/queries/projects';
import { nextSubmission, type IdempotentSubmission } from '../../lib/idempotency-key';
import { formatUtcDateTime } from '../../lib/format-time';
import { Modal, SubmitActions } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import { SecretReveal, type SecretExample } from '../../widgets/secret-reveal/secret-reveal';
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

/** How to send with the key: the standard OpenTelemetry exporter settings first. */
function sendExamples(key: string, projectName: string): SecretExample[] {
  const origin = window.location.origin;
  return [
    {
      id: 'otel',
      label: 'OpenTelemetry',
      caption: 'OpenTelemetry SDK or Collector',
      copyLabel: 'Copy settings',
      // The settings any OTel SDK or Collector reads.
      text: [
        `OTEL_EXPORTER_OTLP_ENDPOINT=${origin}/otlp`,
        `OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20${key}`,
        `OTEL_SERVICE_NAME=${projectName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
        `OTEL_RESOURCE_ATTRIBUTES=service.version=1.0.0,deployment.environment.name=production`,
      ].join('\n'),
      hint: (
        <>
          OTLP over HTTP, protobuf or JSON. Set your service&rsquo;s own version and environment:
          telemetry without them is not accepted.
        </>
      ),
    },
    {
      id: 'sdk',
      label: 'Lookout SDK batch',
      caption: 'Example request',
      copyLabel: 'Copy command',
      text: [
        `curl -X POST '${origin}/v1/events' \\`,
        `  -H 'Authorization: Bearer ${key}' \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  --data @events.json`,
      ].join('\n'),
      hint: (
        <>
          Send the key in the <code>Authorization: Bearer</code> header. It only works for{' '}
          {projectName}.
        </>
      ),
    },
  ];
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
  return (
    <SecretReveal
      warningTitle="Copy this key now"
      warning="It will not be shown again. Store it where your application reads its configuration; if it is lost, create a new key."
      secretLabel="Ingest key"
      secret={ingestKey.key}
      copyLabel="Copy key"
      facts={[
        { term: 'Project', value: projectName },
        { term: 'Name', value: ingestKey.name },
        { term: 'Prefix', value: <code>{ingestKey.key_prefix}</code> },
        {
          term: 'Expires',
          value: ingestKey.expires_at ? formatUtcDateTime(ingestKey.expires_at) : 'Never',
        },
      ]}
      examples={sendExamples(ingestKey.key, projectName)}
      chooserLabel="Send with"
      onDone={onDone}
    />
  );
}
