import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { Project } from '../../api/queries/projects';
import {
  toolConnectionMutations,
  type CreatedToolConnection,
} from '../../api/queries/tool-connections';
import { Modal, SubmitActions } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import styles from './tool-connections.module.css';

const NAME_MAX = 100;
const DAY = 86_400_000;

const EXPIRY = [
  { value: 'never', label: 'Never', days: null },
  { value: '7', label: 'In 7 days', days: 7 },
  { value: '30', label: 'In 30 days', days: 30 },
  { value: '90', label: 'In 90 days', days: 90 },
] as const;
type Expiry = (typeof EXPIRY)[number]['value'];

/** Name, projects (of those the account can read) and expiry of a new connection. */
export function NewConnectionDialog({
  open,
  onOpenChange,
  projects,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  projects: readonly Project[];
  onCreated: (connection: CreatedToolConnection) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="New tool connection"
      description="Read-only, for the projects you choose. The token is shown once, after you create it."
    >
      {open && (
        <ConnectionForm
          projects={projects}
          onCancel={() => onOpenChange(false)}
          onCreated={onCreated}
        />
      )}
    </Modal>
  );
}

function ConnectionForm({
  projects,
  onCancel,
  onCreated,
}: {
  projects: readonly Project[];
  onCancel: () => void;
  onCreated: (connection: CreatedToolConnection) => void;
}) {
  const create = useMutation(toolConnectionMutations.create());
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(
    () => new Set(projects.length === 1 && projects[0] ? [projects[0].id] : []),
  );
  const [expiry, setExpiry] = useState<Expiry>('never');
  const [problem, setProblem] = useState<string | null>(null);
  const expiryId = useId();
  const projectsHint = useId();

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return setProblem('Give the connection a name.');
    if (selected.size === 0) return setProblem('Choose at least one project.');
    setProblem(null);
    const days = EXPIRY.find((e) => e.value === expiry)?.days ?? null;
    create.mutate(
      {
        name: name.trim(),
        // In the order of the list, whatever order they were ticked in.
        projectIds: projects.filter((p) => selected.has(p.id)).map((p) => p.id),
        expiresAt: days === null ? null : new Date(Date.now() + days * DAY).toISOString(),
      },
      {
        onSuccess: (connection) => {
          // Keep the token out of the mutation cache: it lives in the reveal dialog only.
          create.reset();
          onCreated(connection);
        },
      },
    );
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Name"
        name="name"
        placeholder="CI release check"
        maxLength={NAME_MAX}
        autoComplete="off"
        autoFocus
        value={name}
        onChange={(e) => setName(e.target.value)}
        hint="What the tool is, so you recognise it in the list."
      />
      <fieldset className={styles.projectsField} aria-describedby={projectsHint}>
        <legend>Projects it may read</legend>
        <p id={projectsHint} className={styles.hint}>
          Any other project gives the tool “forbidden”.
        </p>
        <ul className={styles.projectChoices}>
          {projects.map((p) => (
            <li key={p.id}>
              <label>
                <input type="checkbox" checked={selected.has(p.id)} onChange={() => toggle(p.id)} />
                {p.name}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className={styles.selectField}>
        <label htmlFor={expiryId}>Expires</label>
        <select id={expiryId} value={expiry} onChange={(e) => setExpiry(e.target.value as Expiry)}>
          {EXPIRY.map((e) => (
            <option key={e.value} value={e.value}>
              {e.label}
            </option>
          ))}
        </select>
      </div>
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
      {create.isError && (
        <WriteFailure
          error={create.error}
          idempotent={false}
          unknownOutcome="The connection may or may not have been created: check the list before creating it again."
        />
      )}
      <SubmitActions
        onCancel={onCancel}
        pending={create.isPending}
        label="Create connection"
        pendingLabel="Creating…"
      />
    </form>
  );
}
