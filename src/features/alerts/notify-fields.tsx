import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { accountQueries } from '../../api/queries/account';
import { Link } from '@tanstack/react-router';
import { alertQueries } from '../../api/queries/alerts';
import { issuesQueries } from '../../api/queries/issues';
import { ErrorState } from '../../ui/error-state';
import { LabelledSelect } from './labelled-select';
import styles from './rule-editor.module.css';

/**
 * Where the rule's notifications go: the inbox (the bell) of one person or every member of a
 * team, and any of the organization's webhooks. No mail is sent: Lookout assumes no mail server.
 */
export function NotifyFields({
  projectId,
  organizationId,
  inbox,
  webhookIds,
  onInbox,
  onWebhooks,
}: {
  projectId: string;
  organizationId: string | undefined;
  inbox: string;
  webhookIds: readonly string[];
  onInbox: (inbox: string) => void;
  onWebhooks: (ids: string[]) => void;
}) {
  const people = useQuery({ ...issuesQueries.assignees(projectId), enabled: projectId !== '' });
  const { data: account } = useSuspenseQuery(accountQueries.me());
  const self = `user:${account.account_id}`;
  const webhooks = useQuery({
    ...alertQueries.webhooks(organizationId ?? ''),
    enabled: organizationId !== undefined,
  });
  const inboxOptions = [
    { value: '', label: 'No inbox (webhooks only)' },
    ...(people.data?.assignees.map((u) => {
      const value = `user:${u.user_id}`;
      const name = u.name ?? u.email;
      return { value, label: value === self ? `${name} (you)` : name };
    }) ?? []),
    ...(people.data?.teams?.map((t) => ({ value: `team:${t.team_id}`, label: `Team ${t.name}` })) ??
      []),
  ];
  if (!inboxOptions.some((o) => o.value === inbox)) {
    inboxOptions.push({
      value: inbox,
      label: inbox === self ? 'You' : 'The person or team chosen before',
    });
  }
  return (
    <div className={styles.stack}>
      <LabelledSelect
        label="Inbox (the bell)"
        value={inbox}
        options={inboxOptions}
        onChange={onInbox}
      />
      {people.isError && (
        <p className={styles.hint} role="status">
          The project’s people could not be read; the inbox keeps its current choice. Reload the
          page to try again.
        </p>
      )}
      <fieldset className={styles.checkGroup}>
        <legend className={styles.legend}>Webhooks</legend>
        {webhooks.isError ? (
          <ErrorState error={webhooks.error} compact reset={() => void webhooks.refetch()} />
        ) : webhooks.data === undefined ? (
          <p className={styles.hint}>Loading the organization’s webhooks…</p>
        ) : webhooks.data.length === 0 ? (
          <p className={styles.hint}>
            The organization has no webhooks yet.{' '}
            <Link
              to="/alerts/webhooks"
              search={{ organization: organizationId }}
              className={styles.inlineLink}
            >
              Add one
            </Link>{' '}
            to send alerts to another system.
          </p>
        ) : (
          webhooks.data.map((w) => (
            <label key={w.id} className={styles.check}>
              <input
                type="checkbox"
                checked={webhookIds.includes(w.id)}
                onChange={(e) =>
                  onWebhooks(
                    e.target.checked
                      ? [...webhookIds, w.id]
                      : webhookIds.filter((id) => id !== w.id),
                  )
                }
              />
              <span>{w.name}</span>
              <span className={styles.mono}>{w.url}</span>
            </label>
          ))
        )}
      </fieldset>
      <p className={styles.hint}>
        Lookout sends no email (no mail server is assumed): use the inbox, or a webhook to your chat
        or paging tool.
      </p>
    </div>
  );
}
