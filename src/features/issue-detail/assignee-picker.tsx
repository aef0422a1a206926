import { useQuery } from '@tanstack/react-query';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { accountQueries } from '../../api/queries/account';
import {
  issueDetailQueries,
  type IssueDetail,
  type IssueOwner,
} from '../../api/queries/issue-detail';
import { buttonClass } from '../../ui/button';
import { ErrorState } from '../../ui/error-state';
import { CheckIcon, ChevronDownIcon } from '../../ui/icons';
import popover from '../../ui/popover.module.css';
import styles from './assignee-picker.module.css';
import { PopoverPanel } from '../../ui/popover-panel';

/** The assignee as one line: a person's name (or email), a team's name, or "Unassigned". */
export function assigneeLabel(assignee: IssueDetail['assignee']): string {
  if (assignee === null) return 'Unassigned';
  if (assignee.type === 'team') return `${assignee.name} (team)`;
  return assignee.name ?? assignee.email;
}

/** Why an owner is suggested: the rule line that matched, or recent activity. */
export function ownerReason(owner: IssueOwner): string {
  if (owner.source === 'recent_activity') return `recent ${owner.matched} change`;
  const where = owner.source === 'codeowners' ? 'CODEOWNERS' : 'ownership rule';
  return `${where}${owner.line !== null ? ` line ${owner.line}` : ''}: ${owner.matched}`;
}

/**
 * Who the issue is assigned to: people and teams of the project's organization (assignees
 * version 2), with the owners' suggestion first (ownership rules, CODEOWNERS, recent activity),
 * "Assign to me", and "Unassign" (`none`). Sends `me`, a user id or `team:<id>`.
 */
export function AssigneePicker({
  issue,
  disabled,
  labelledBy,
  onAssign,
}: {
  issue: IssueDetail;
  disabled: boolean;
  labelledBy: string;
  onAssign: (assignee: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const assignees = useQuery({ ...issueDetailQueries.assignees(issue.project_id), enabled: open });
  const owners = useQuery({ ...issueDetailQueries.owners(issue.id), enabled: open });
  const me = useQuery(accountQueries.me());
  const current = issue.assignee;
  const choose = (value: string) => {
    setOpen(false);
    setFilter('');
    onAssign(value);
  };
  const needle = filter.trim().toLowerCase();
  const matches = (...texts: (string | null)[]) =>
    needle === '' || texts.some((t) => t?.toLowerCase().includes(needle));
  const teams = (assignees.data?.teams ?? []).filter((t) => matches(t.name, t.slug));
  const people = (assignees.data?.assignees ?? []).filter((u) => matches(u.name, u.email));
  const myId = me.data?.account_id;
  const suggested = (owners.data?.owners ?? [])
    .filter((o) => matches(o.name, o.email ?? null, o.slug ?? null))
    .slice(0, 3);
  const isCurrent = (o: IssueOwner) =>
    o.type === 'team'
      ? current?.type === 'team' && current.team_id === o.team_id
      : current?.type === 'user' && current.user_id === o.user_id;

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        className={`${buttonClass('secondary', 'sm')} ${styles.assigneeTrigger}`}
        disabled={disabled}
        aria-labelledby={`${labelledBy} assignee-value-${issue.id}`}
      >
        <Avatar
          text={current === null ? null : assigneeLabel(current)}
          team={current?.type === 'team'}
        />
        <span id={`assignee-value-${issue.id}`} className={popover.triggerLabel}>
          {assigneeLabel(current)}
        </span>
        <ChevronDownIcon className={popover.chevron} />
      </Popover.Trigger>
      <PopoverPanel label="Assign issue" className={styles.assigneePanel} align="start">
        <input
          className={styles.assigneeFilter}
          placeholder="Find a person or team"
          aria-label="Find a person or team"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          autoFocus
        />
        <div className={styles.assigneeList}>
          {myId !== undefined && needle === '' && (
            <Choice
              label="Assign to me"
              selected={current?.type === 'user' && current.user_id === myId}
              onSelect={() => choose('me')}
            />
          )}
          {current !== null && needle === '' && (
            <Choice label="Unassign" selected={false} onSelect={() => choose('none')} />
          )}
          {suggested.length > 0 && <div className={popover.sectionLabel}>Suggested</div>}
          {suggested.map((o) => (
            <Choice
              key={`owner:${o.assignee}`}
              label={o.name ?? o.email ?? o.slug ?? o.assignee}
              detail={ownerReason(o)}
              team={o.type === 'team'}
              selected={isCurrent(o)}
              onSelect={() => choose(o.assignee)}
            />
          ))}
          {owners.isError && (
            <p className={styles.pickerNote}>Owners could not be read: {owners.error.message}</p>
          )}
          {assignees.isPending && <p className={styles.pickerNote}>Loading people and teams…</p>}
          {assignees.isError && <ErrorState error={assignees.error} compact />}
          {teams.length > 0 && <div className={popover.sectionLabel}>Teams</div>}
          {teams.map((t) => (
            <Choice
              key={t.team_id}
              label={t.name}
              detail={`#${t.slug}`}
              team
              selected={current?.type === 'team' && current.team_id === t.team_id}
              onSelect={() => choose(`team:${t.team_id}`)}
            />
          ))}
          {people.length > 0 && <div className={popover.sectionLabel}>People</div>}
          {people.map((u) => (
            <Choice
              key={u.user_id}
              label={u.name ?? u.email}
              detail={u.name ? u.email : undefined}
              selected={current?.type === 'user' && current.user_id === u.user_id}
              onSelect={() => choose(u.user_id)}
            />
          ))}
          {assignees.isSuccess && teams.length === 0 && people.length === 0 && (
            <p className={styles.pickerNote}>Nobody matches “{filter}”.</p>
          )}
        </div>
      </PopoverPanel>
    </Popover.Root>
  );
}

function Choice({
  label,
  detail,
  team = false,
  selected,
  onSelect,
}: {
  label: string;
  detail?: string | undefined;
  team?: boolean;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      className={styles.choice}
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
    >
      {label !== 'Assign to me' && label !== 'Unassign' && <Avatar text={label} team={team} />}
      <span className={styles.choiceLabel}>{label}</span>
      {detail && (
        <span className={styles.choiceDetail} title={detail}>
          {detail}
        </span>
      )}
      {selected && <CheckIcon className={styles.choiceCheck} />}
    </button>
  );
}

/** Initials in a circle (a square for teams); decorative, the name is always beside it. */
export function Avatar({ text, team = false }: { text: string | null; team?: boolean }) {
  const initials =
    text === null
      ? ''
      : text
          .replace(/\(team\)$/, '')
          .split(/[\s@._-]+/)
          .filter(Boolean)
          .slice(0, 2)
          .map((w) => w[0]?.toUpperCase() ?? '')
          .join('');
  return (
    <span
      className={styles.avatar}
      data-team={team || undefined}
      data-empty={text === null || undefined}
      aria-hidden="true"
    >
      {initials}
    </span>
  );
}
