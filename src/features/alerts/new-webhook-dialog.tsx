import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { alertMutations, type CreatedWebhook } from '../../api/queries/alerts';
import { nextSubmission, type IdempotentSubmission } from '../../lib/idempotency-key';
import { Modal, SubmitActions } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import styles from './webhooks.module.css';

/** Adds a webhook to the organization; its secret is shown once by the caller. */
export function NewWebhookDialog({
  open,
  onOpenChange,
  organizationId,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizationId: string;
  onCreated: (webhook: CreatedWebhook) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Add a webhook"
      description="Lookout sends each alert's firing and resolution to this URL as a signed JSON POST, retrying with backoff until it answers 2xx."
    >
      <NewWebhookForm
        organizationId={organizationId}
        onCancel={() => onOpenChange(false)}
        onCreated={onCreated}
      />
    </Modal>
  );
}

function NewWebhookForm({
  organizationId,
  onCancel,
  onCreated,
}: {
  organizationId: string;
  onCancel: () => void;
  onCreated: (webhook: CreatedWebhook) => void;
}) {
  const create = useMutation(alertMutations.createWebhook());
  const submission = useRef<IdempotentSubmission | null>(null);
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  // The service owns the rules for URLs (https, loopback http); its answer is shown here.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { organization_id: organizationId, name: name.trim(), url: url.trim() };
    submission.current = nextSubmission(submission.current, body);
    create.mutate({ body, idempotencyKey: submission.current.key }, { onSuccess: onCreated });
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="On-call pager"
      />
      <TextField
        label="URL"
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://hooks.example.com/lookout"
        hint="HTTPS only (plain HTTP only to this machine: 127.0.0.1, ::1, localhost)."
      />
      {create.isError && (
        <WriteFailure
          error={create.error}
          idempotent
          unknownOutcome="The webhook may or may not have been added."
        />
      )}
      <SubmitActions
        onCancel={onCancel}
        pending={create.isPending}
        label="Add webhook"
        pendingLabel="Adding…"
      />
    </form>
  );
}
