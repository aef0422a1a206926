import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import {
  issueDetailMutations,
  issueDetailQueries,
  type Ownership,
} from '../../api/queries/issue-detail';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { WriteFailure } from '../../ui/write-failure';
import styles from './ownership-editor.module.css';
import section from './issue-section.module.css';

/** The service refuses either text above 128 KiB (UTF-8). */
const MAX_BYTES = 131072;
const bytes = (s: string) => new TextEncoder().encode(s).length;

/**
 * The project's ownership rules and CODEOWNERS, which decide the owners suggested for its
 * issues. Closed until opened; saving sends only the texts that changed. An invalid line is
 * the service's `422`, which names it.
 */
export function OwnershipEditor({
  issueId,
  projectId,
  projectName,
  canManage,
}: {
  issueId: string;
  projectId: string;
  projectName: string;
  canManage: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className={`${section.card} ${styles.ownership}`}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className={styles.ownershipSummary}>
        <span className={section.sectionTitle}>Ownership rules</span>
        <span className={styles.muted}>
          Who is suggested as assignee for issues of {projectName}
        </span>
      </summary>
      {open && <OwnershipForm issueId={issueId} projectId={projectId} canManage={canManage} />}
    </details>
  );
}

function OwnershipForm({
  issueId,
  projectId,
  canManage,
}: {
  issueId: string;
  projectId: string;
  canManage: boolean;
}) {
  const query = useQuery(issueDetailQueries.ownership(issueId, projectId));
  if (query.isPending) return <PendingState label="Loading ownership rules…" />;
  if (query.isError) {
    return (
      <div className={section.cardBody}>
        <ErrorState error={query.error} compact reset={() => void query.refetch()} />
      </div>
    );
  }
  return (
    <OwnershipTexts
      key={query.data.updated_at ?? 'never'}
      issueId={issueId}
      projectId={projectId}
      saved={query.data}
      canManage={canManage}
    />
  );
}

function OwnershipTexts({
  issueId,
  projectId,
  saved,
  canManage,
}: {
  issueId: string;
  projectId: string;
  saved: Ownership;
  canManage: boolean;
}) {
  const id = useId();
  const [rules, setRules] = useState(saved.rules);
  const [codeowners, setCodeowners] = useState(saved.codeowners);
  const mutation = useMutation(issueDetailMutations.saveOwnership(issueId, projectId));
  const changed = rules !== saved.rules || codeowners !== saved.codeowners;
  const tooLong = bytes(rules) > MAX_BYTES || bytes(codeowners) > MAX_BYTES;

  const save = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate({
      ...(rules !== saved.rules ? { rules } : {}),
      ...(codeowners !== saved.codeowners ? { codeowners } : {}),
    });
  };

  return (
    <form className={styles.ownershipForm} onSubmit={save}>
      <div className={styles.ownershipFields}>
        <div className={styles.ownershipField}>
          <label htmlFor={`${id}-rules`} className={styles.controlLabel}>
            Ownership rules
          </label>
          <textarea
            id={`${id}-rules`}
            className={styles.textarea}
            value={rules}
            readOnly={!canManage}
            spellCheck={false}
            rows={8}
            placeholder={'path:src/checkout/* #payments\nurl:*/cart/* chen@lookout.dev'}
            onChange={(e) => setRules(e.target.value)}
          />
          <p className={styles.hint}>
            One rule per line: <code>path:</code>, <code>module:</code>, <code>url:</code> or{' '}
            <code>tag:key:</code> with a glob, then owners (<code>user@email</code>,{' '}
            <code>#team-slug</code>). The first matching line wins.
          </p>
        </div>
        <div className={styles.ownershipField}>
          <label htmlFor={`${id}-codeowners`} className={styles.controlLabel}>
            CODEOWNERS
          </label>
          <textarea
            id={`${id}-codeowners`}
            className={styles.textarea}
            value={codeowners}
            readOnly={!canManage}
            spellCheck={false}
            rows={8}
            placeholder={'/src/payments/ @payments\n*.py bruno@lookout.dev'}
            onChange={(e) => setCodeowners(e.target.value)}
          />
          <p className={styles.hint}>
            As GitHub reads it: a path pattern, then owners (<code>@team-slug</code> or an email).
            The last matching line wins.
          </p>
        </div>
      </div>
      {saved.unresolved_owners.length > 0 && (
        <div className={styles.unresolved}>
          <p className={styles.controlLabel}>Owners that name nobody in this organization</p>
          <ul>
            {saved.unresolved_owners.map((o) => (
              <li key={`${o.source}:${o.line}:${o.owner}`}>
                <code>{o.owner}</code>{' '}
                <span className={styles.muted}>
                  ({o.source === 'codeowners' ? 'CODEOWNERS' : 'rules'} line {o.line})
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {tooLong && (
        <p className={styles.hint} role="alert">
          Each text can be at most 128 KiB.
        </p>
      )}
      {mutation.isError && <WriteFailure error={mutation.error} idempotent />}
      <div className={styles.ownershipActions}>
        <span className={styles.muted}>
          {saved.updated_at ? `Last changed ${formatUtcDateTime(saved.updated_at)}` : 'Never set'}
        </span>
        {canManage ? (
          <Button
            size="sm"
            variant="primary"
            type="submit"
            disabled={!changed || tooLong || mutation.isPending}
          >
            {mutation.isPending ? 'Saving…' : 'Save ownership'}
          </Button>
        ) : (
          <span className={styles.muted}>Only owners and admins can change these.</span>
        )}
      </div>
    </form>
  );
}
