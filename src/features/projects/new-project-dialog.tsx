import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { Account } from '../../api/queries/account';
import { projectsMutations, type Project } from '../../api/queries/projects';
import { nextSubmission, type IdempotentSubmission } from '../../lib/idempotency-key';
import { Modal, SubmitActions } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import styles from './projects.module.css';

type Organization = Account['organizations'][number];

export function NewProjectDialog({
  open,
  onOpenChange,
  organizations,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Organizations where the account may create projects. */
  organizations: Organization[];
  onCreated: (project: Project) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="New project"
      description="A project collects the telemetry of one application or service. Create ingest keys for it afterwards."
    >
      <NewProjectForm
        organizations={organizations}
        onCancel={() => onOpenChange(false)}
        onCreated={onCreated}
      />
    </Modal>
  );
}

function NewProjectForm({
  organizations,
  onCancel,
  onCreated,
}: {
  organizations: Organization[];
  onCancel: () => void;
  onCreated: (project: Project) => void;
}) {
  const id = useId();
  const create = useMutation(projectsMutations.create());
  const submission = useRef<IdempotentSubmission | null>(null);
  const [name, setName] = useState('');
  const [organizationId, setOrganizationId] = useState(organizations[0]?.id ?? '');

  // The service owns the rules for names (length, blank); its answer is shown in the form.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name: name.trim(),
      organizationId: organizations.length > 1 ? organizationId : undefined,
    };
    // The same submission sent again (after a failure) reuses its Idempotency-Key.
    submission.current = nextSubmission(submission.current, body);
    create.mutate({ ...body, idempotencyKey: submission.current.key }, { onSuccess: onCreated });
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {organizations.length > 1 && (
        <div className={styles.selectField}>
          <label htmlFor={`${id}-org`}>Organization</label>
          <select
            id={`${id}-org`}
            value={organizationId}
            onChange={(e) => setOrganizationId(e.target.value)}
          >
            {organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <TextField
        label="Project name"
        name="name"
        placeholder="e.g. Storefront Web"
        maxLength={100}
        autoComplete="off"
        autoFocus
        value={name}
        onChange={(e) => setName(e.target.value)}
        hint="The slug is made from the name."
      />
      {create.isError && (
        <WriteFailure
          error={create.error}
          idempotent
          unknownOutcome="The project may or may not have been created."
        />
      )}
      <SubmitActions
        onCancel={onCancel}
        pending={create.isPending}
        label="Create project"
        pendingLabel="Creating…"
      />
    </form>
  );
}
