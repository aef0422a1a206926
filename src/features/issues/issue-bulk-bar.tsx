import { markBidiControls } from '../../lib/bidi-controls';
import { useQueries } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import {
  issuesQueries,
  ISSUE_PRIORITIES,
  type BulkChange,
  type IssueTeam,
  type IssueUser,
} from '../../api/queries/issues';
import { Avatar } from '../../ui/avatar';
import { Button, buttonClass } from '../../ui/button';
import { ChevronDownIcon } from '../../ui/icons';
import popover from '../../ui/popover.module.css';
import { initialsOf, priorityLabels } from './board';
import styles from './issues-page.module.css';
import type { BulkRun } from './use-bulk-triage';

type Assignees = Awaited<
  ReturnType<NonNullable<ReturnType<typeof issuesQueries.assignees>['queryFn']>>
>;
type Common = { users: IssueUser[]; teams: IssueTeam[]; loading: boolean };

/** Users and teams every selected project can take (the intersection over projects). */
function intersect(
  results: readonly { data?: Assignees | undefined; isPending: boolean }[],
): Common {
  const loading = results.some((r) => r.isPending);
  const loaded = results.flatMap((r) => (r.data ? [r.data] : []));
  if (loaded.length === 0 || loaded.length !== results.length) {
    return { users: [], teams: [], loading };
  }
  const [first, ...rest] = loaded;
  const users = (first?.assignees ?? []).filter((u) =>
    rest.every((d) => d.assignees.some((x) => x.user_id === u.user_id)),
  );
  const teams = (first?.teams ?? []).filter((t) =>
    rest.every((d) => (d.teams ?? []).some((x) => x.team_id === t.team_id)),
  );
  return { users, teams, loading };
}

function useCommonAssignees(projectIds: readonly string[]): Common {
  return useQueries({
    queries: projectIds.map((id) => issuesQueries.assignees(id)),
    combine: intersect,
  });
}

/** The bar over a selection: status, priority and assignee for every selected issue. */
export function IssueBulkBar({
  count,
  projectIds,
  pending,
  assignOpen,
  onAssignOpenChange,
  onApply,
  onClear,
}: {
  count: number;
  projectIds: readonly string[];
  pending: boolean;
  assignOpen: boolean;
  onAssignOpenChange: (open: boolean) => void;
  onApply: (change: BulkChange, label: string) => void;
  onClear: () => void;
}) {
  const { users, teams, loading } = useCommonAssignees(projectIds);
  return (
    <div className={styles.bulkBar} role="toolbar" aria-label="Bulk actions">
      <span className={styles.bulkCount}>
        {count} selected
        {projectIds.length > 1 ? ` in ${projectIds.length} projects` : ''}
      </span>
      <Button
        size="sm"
        disabled={pending}
        onClick={() => onApply({ status: 'resolved' }, 'Resolve')}
      >
        Resolve <kbd className={styles.kbd}>r</kbd>
      </Button>
      <Button
        size="sm"
        disabled={pending}
        onClick={() => onApply({ status: 'archived' }, 'Archive')}
      >
        Archive <kbd className={styles.kbd}>e</kbd>
      </Button>
      <Button
        size="sm"
        disabled={pending}
        onClick={() => onApply({ status: 'unresolved' }, 'Unresolve')}
      >
        Unresolve
      </Button>
      {/* Not modal: a modal menu hides the page (aria-hidden) while its controls stay focusable. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className={buttonClass('secondary', 'sm')} disabled={pending}>
          Priority <ChevronDownIcon className={popover.chevron} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={popover.surface} align="start" sideOffset={6}>
            {ISSUE_PRIORITIES.map((p) => (
              <DropdownMenu.Item
                key={p}
                className={styles.menuItem}
                onSelect={() => onApply({ priority: p }, `Set priority ${p}`)}
              >
                {p[0]?.toUpperCase()}
                {p.slice(1)}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <DropdownMenu.Root modal={false} open={assignOpen} onOpenChange={onAssignOpenChange}>
        <DropdownMenu.Trigger className={buttonClass('secondary', 'sm')} disabled={pending}>
          Assign <kbd className={styles.kbd}>a</kbd>
          <ChevronDownIcon className={popover.chevron} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className={`${popover.surface} ${styles.assignMenu}`}
            align="start"
            sideOffset={6}
            aria-label="Assign to"
          >
            {loading && <div className={popover.sectionLabel}>Loading…</div>}
            <DropdownMenu.Item
              className={styles.menuItem}
              onSelect={() => onApply({ assignee: 'none' }, 'Unassign')}
            >
              Nobody (unassign)
            </DropdownMenu.Item>
            {teams.length > 0 && (
              <DropdownMenu.Label className={popover.sectionLabel}>Teams</DropdownMenu.Label>
            )}
            {teams.map((t) => (
              <DropdownMenu.Item
                key={t.team_id}
                className={styles.menuItem}
                onSelect={() =>
                  onApply({ assignee: `team:${t.team_id}` }, `Assign to team ${t.slug}`)
                }
              >
                <Avatar team>#</Avatar>
                Team {t.name} <span className={styles.menuHint}>#{t.slug}</span>
              </DropdownMenu.Item>
            ))}
            {users.length > 0 && (
              <DropdownMenu.Label className={popover.sectionLabel}>People</DropdownMenu.Label>
            )}
            {users.map((u) => (
              <DropdownMenu.Item
                key={u.user_id}
                className={styles.menuItem}
                onSelect={() => onApply({ assignee: u.user_id }, `Assign to ${u.name ?? u.email}`)}
              >
                <Avatar>{initialsOf(u.name, u.email)}</Avatar>
                {u.name ?? u.email}
                {u.name && <span className={styles.menuHint}>{u.email}</span>}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <Button size="sm" variant="ghost" onClick={onClear} className={styles.bulkClear}>
        Clear selection
      </Button>
    </div>
  );
}

const outcomeLabels: Record<BulkRun['rows'][number]['outcome'], string> = {
  updated: 'Updated',
  unchanged: 'Unchanged',
  not_found: 'Not found',
  failed: 'Failed',
};

/** What the last bulk change did to each issue, with its undo. */
export function BulkResultPanel({
  run,
  pending,
  onUndo,
  onDismiss,
}: {
  run: BulkRun;
  pending: boolean;
  onUndo: () => void;
  onDismiss: () => void;
}) {
  const counts = run.rows.reduce<Record<string, number>>((acc, r) => {
    acc[r.outcome] = (acc[r.outcome] ?? 0) + 1;
    return acc;
  }, {});
  const summary = (['updated', 'unchanged', 'not_found', 'failed'] as const)
    .filter((o) => counts[o])
    .map((o) => `${counts[o]} ${outcomeLabels[o].toLowerCase()}`)
    .join(', ');
  return (
    <section className={styles.resultPanel} aria-label="Bulk change results">
      <div className={styles.resultHead}>
        <h2 className={styles.resultTitle}>{run.label}</h2>
        <span className={styles.resultSummary} role="status">
          {summary}
        </span>
        <span className={styles.resultActions}>
          {run.undo.length > 0 && (
            <Button size="sm" onClick={onUndo} disabled={pending}>
              Undo
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        </span>
      </div>
      {run.manualAfterUndo.length > 0 && <ManualPriorityNote run={run} />}
      {run.error !== null && (
        <p className={styles.resultError} role="alert">
          Some requests failed; those issues are marked “Failed” and were not changed by this
          console. Re-read the board before trying a different change.
        </p>
      )}
      <ul className={styles.resultList} aria-label="Outcome per issue">
        {run.rows.map((r) => {
          const kept = run.undoOf
            ? run.manualAfterUndo.find((m) => m.issueId === r.issueId)
            : undefined;
          return (
            <li key={r.issueId} className={styles.resultRow} data-outcome={r.outcome}>
              <span className={styles.outcome} data-outcome={r.outcome}>
                {outcomeLabels[r.outcome]}
              </span>
              <span className={styles.resultIssue} title={markBidiControls(r.title)}>
                {r.title === r.issueId ? <code>{r.issueId}</code> : r.title}
              </span>
              {kept && r.outcome !== 'failed' && r.outcome !== 'not_found' && (
                <span className={styles.resultHint}>
                  {priorityLabels[kept.priority]} · manual (was derived)
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * Says what an undo of a priority change cannot do: the issues whose priority was derived get
 * the earlier value back as a manual priority, because the service has no way to return a
 * priority to derived (its changes take only high, medium or low, and each makes it manual).
 */
function ManualPriorityNote({ run }: { run: BulkRun }) {
  // After the undo: only the issues it reached (a failed request changed nothing).
  const reached = new Set(
    run.rows
      .filter((r) => r.outcome === 'updated' || r.outcome === 'unchanged')
      .map((r) => r.issueId),
  );
  const kept = run.undoOf
    ? run.manualAfterUndo.filter((m) => reached.has(m.issueId))
    : run.manualAfterUndo;
  if (kept.length === 0) return null;
  const issues = kept.length === 1 ? '1 issue' : `${kept.length} issues`;
  const labels = [...new Set(kept.map((m) => priorityLabels[m.priority]))];
  const one = labels.length === 1 ? labels[0] : undefined;
  const why = 'the service cannot return a priority to derived';
  let text: string;
  if (run.undoOf) {
    text =
      one !== undefined
        ? `Priority is back to ${one} on ${issues}, but as a manual priority: it was derived from severity before, and ${why}.`
        : `Priority is back to its earlier value on ${issues} (${labels.join(', ')}), but as a manual priority: it was derived from severity before, and ${why}.`;
  } else {
    text = `Undo sets ${issues} back to ${one ?? `their earlier priority (${labels.join(', ')})`} as a manual priority: it was derived from severity, and ${why}.`;
  }
  return (
    <p className={styles.resultNote} role="note">
      {text}
    </p>
  );
}
