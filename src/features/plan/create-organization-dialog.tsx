import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { organizationsMutations, type Organization } from '../../api/queries/organizations';
import { nextSubmission, type IdempotentSubmission } from '../../lib/idempotency-key';
import { Modal, SubmitActions } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import styles from './plan-page.module.css';

export function CreateOrganizationDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (organization: Organization) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Create organization"
      description="This account becomes the owner. Projects and members are added to it afterwards."
    >
      <CreateOrganizationForm onCancel={() => onOpenChange(false)} onCreated={onCreated} />
    </Modal>
  );
}

function CreateOrganizationForm({
  onCancel,
  onCreated,
}: {
  onCancel: () => void;
  onCreated: (organization: Organization) => void;
}) {
  const create = useMutation(organizationsMutations.create());
  const submission = useRef<IdempotentSubmission | null>(null);
  const [name, setName] = useState('');

  // The service owns the rules for names (length, blank) and the gate; its answer is shown here.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim() };
    // The same submission sent again (after a failure) reuses its Idempotency-Key.
    submission.current = nextSubmission(submission.current, body);
    create.mutate({ ...body, idempotencyKey: submission.current.key }, { onSuccess: onCreated });
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Organization name"
        name="name"
        placeholder="e.g. Storefront Team"
        maxLength={100}
        autoComplete="off"
        autoFocus
        value={name}
        onChange={(e) => setName(e.target.value)}
        hint="1 to 100 characters."
      />
      {create.isError && (
        <WriteFailure
          error={create.error}
          idempotent
          unknownOutcome="The organization may or may not have been created."
        />
      )}
      <SubmitActions
        onCancel={onCancel}
        pending={create.isPending}
        label="Create organization"
        pendingLabel="Creating…"
      />
    </form>
  );
}
