import type { InfiniteData } from '@tanstack/react-query';
import type { Issue, IssueNotifications, IssuePage } from '../../api/queries/issues';

/**
 * What a read of the issue pages says about triage, as one comparable string: the inbox's
 * notification ids, or each issue's status, priority (and its source) and assignee. Counts
 * and times of occurrences are left out: new occurrences are not someone's triage.
 */
export type TriageSignature = { kind: 'notifications' | 'issues'; value: string };

type Triage = Pick<Issue, 'id' | 'status' | 'priority' | 'priority_source' | 'assignee'>;

function issueTriage(i: Triage): string {
  const a = i.assignee;
  const who = a === null ? 'none' : a.type === 'team' ? `team:${a.team_id}` : a.user_id;
  return `${i.id}:${i.status}:${i.priority}:${i.priority_source}:${who}`;
}

const pagesOf = <T>(data: unknown): T[] | null => {
  const pages = (data as InfiniteData<T> | undefined)?.pages;
  return Array.isArray(pages) ? pages : null;
};

/** The signature of a query's data, or null for queries that carry no triage. */
export function triageSignature(
  queryKey: readonly unknown[],
  data: unknown,
): TriageSignature | null {
  if (queryKey[0] !== 'issues' || data === undefined) return null;
  if (queryKey[1] === 'notifications' && queryKey.length === 2) {
    const pages = pagesOf<IssueNotifications>(data);
    if (pages === null) return null;
    const ids = pages.flatMap((p) => p.notifications.map((n) => n.id));
    return { kind: 'notifications', value: ids.join(',') };
  }
  if (queryKey[1] === 'list') {
    const pages = pagesOf<IssuePage>(data);
    if (pages === null) return null;
    return { kind: 'issues', value: pages.flatMap((p) => p.issues.map(issueTriage)).join(',') };
  }
  if (queryKey[1] === 'detail' && queryKey[3] === 'issue') {
    return { kind: 'issues', value: issueTriage(data as Triage) };
  }
  return null;
}
