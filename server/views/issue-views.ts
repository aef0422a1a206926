import { priorityOf, type IssueVersion } from '../domain/issue-triage';
import type {
  AccountRef,
  ActivityRecord,
  IssueAssignee,
  IssueRecord,
  IssueRow,
  NotificationRecord,
  TeamRef,
} from '../core/store/state/issues';
import type { OccurrenceRecord } from '../core/store/telemetry/occurrences';
import { iso, traceAction } from './telemetry-views';

/**
 * Issue records in their four response versions, occurrences, activity and notifications.
 * Every version is built from the one before it, so a field means the same in each.
 */

type Diagnosed = Pick<IssueRow, 'exception' | 'breadcrumbs' | 'breadcrumbsTruncated'>;

/** Present when the occurrence has an exception type or breadcrumbs; omitted otherwise. */
function diagnosticsOf(i: Diagnosed) {
  if (!i.exception && !i.breadcrumbs) return {};
  return {
    diagnostics: {
      schema_version: 1,
      ...(i.exception ? { exception: i.exception } : {}),
      ...(i.breadcrumbs ? { breadcrumbs: i.breadcrumbs } : {}),
      breadcrumbs_truncated: i.breadcrumbsTruncated,
    },
  };
}

const effectiveSeverity = (i: IssueRow) => i.ruleSeverity ?? i.severity;

/** Every version's fields; `status` is added by each version in its own vocabulary. */
function issueFields(i: IssueRow) {
  return {
    id: i.id,
    project_id: i.projectId,
    fingerprint: i.fingerprint,
    severity: i.severity,
    // An archived issue is what older clients call ignored, in every version.
    triage: {
      effective_severity: effectiveSeverity(i),
      ignored: i.status === 'archived',
      rule_applied: i.ruleSeverity !== null,
    },
    title: i.title,
    message: i.message,
    stack_trace: i.stackTrace,
    attributes: i.attributes,
    environment: i.environment,
    release: i.release,
    service_name: i.serviceName,
    trace_id: i.traceId,
    ...(i.spanId ? { span_id: i.spanId } : {}),
    next_action: traceAction(i.traceId),
    occurrence_count: i.occurrenceCount,
    first_seen_at: iso(i.firstSeenAt),
    last_seen_at: iso(i.lastSeenAt),
    ...diagnosticsOf(i),
  };
}

/** Version 1 (also the live feed's `native_issue`): archived shows as `ignored`; no priority. */
export function issueViewV1(i: IssueRow) {
  return {
    ...issueFields(i),
    status: i.status === 'archived' ? ('ignored' as const) : i.status,
  };
}

/** Version 2: `archived`, plus `priority` and `priority_source`. */
export function issueViewV2(i: IssueRecord) {
  return {
    ...issueFields(i),
    status: i.status,
    ...priorityOf(i.manualPriority, effectiveSeverity(i)),
  };
}

/** A user assignee who can no longer read the project is not shown (it shows again with access). */
const shownAssignee = (a: IssueAssignee | null): IssueAssignee | null =>
  a !== null && a.type === 'user' && !a.canRead ? null : a;

export const userView = (a: AccountRef) => ({ user_id: a.id, name: a.name, email: a.email });
export const teamView = (t: TeamRef) => ({ team_id: t.id, slug: t.slug, name: t.name });

/** Version 3: version 2 plus `assignee`, a user or null (a team shows as null). */
export function issueViewV3(i: IssueRecord) {
  const a = shownAssignee(i.assignee);
  return { ...issueViewV2(i), assignee: a?.type === 'user' ? userView(a) : null };
}

/** Version 4: the assignee gains `type`: a user, a team, or null. */
export function issueViewV4(i: IssueRecord) {
  const a = shownAssignee(i.assignee);
  const assignee =
    a === null
      ? null
      : a.type === 'user'
        ? { type: 'user' as const, ...userView(a) }
        : { type: 'team' as const, ...teamView(a) };
  return { ...issueViewV2(i), assignee };
}

export type IssueView =
  | ReturnType<typeof issueViewV1>
  | ReturnType<typeof issueViewV2>
  | ReturnType<typeof issueViewV3>
  | ReturnType<typeof issueViewV4>;

/** The issue in the requested response version. */
export function issueView(i: IssueRecord, version: IssueVersion): IssueView {
  switch (version) {
    case 1:
      return issueViewV1(i);
    case 2:
      return issueViewV2(i);
    case 3:
      return issueViewV3(i);
    case 4:
      return issueViewV4(i);
  }
}

/** One occurrence with its own context; no status, triage, priority or counts. */
export function occurrenceView(o: OccurrenceRecord) {
  return {
    id: o.id,
    issue_id: o.issueId,
    project_id: o.projectId,
    occurred_at: iso(o.occurredAt),
    severity: o.severity,
    title: o.title,
    message: o.message,
    stack_trace: o.stackTrace,
    attributes: o.attributes,
    environment: o.environment,
    release: o.release,
    service_name: o.serviceName,
    trace_id: o.traceId,
    ...(o.spanId ? { span_id: o.spanId } : {}),
    ...diagnosticsOf(o),
    sdk_name: o.sdk.name,
    sdk_version: o.sdk.version,
    next_action: traceAction(o.traceId),
  };
}

/** Who did it, to whom: shared by activity entries and notifications. */
function activityFields(a: ActivityRecord) {
  return {
    id: a.id,
    actor_id: a.actor?.id ?? null,
    actor: a.actor ? userView(a.actor) : null,
    assignee_id: a.assigneeUser?.id ?? null,
    assignee: a.assigneeUser ? userView(a.assigneeUser) : null,
    team: a.assigneeTeam ? teamView(a.assigneeTeam) : null,
    at: iso(a.at),
  };
}

/** An activity entry (response version 2). */
export function activityView(a: ActivityRecord) {
  return { type: a.type, value: a.value, ...activityFields(a) };
}

/** An assignment notification; `read` when it is not later than the read mark. */
export function notificationView(n: NotificationRecord, readAt: number | null) {
  return {
    issue_id: n.issueId,
    project_id: n.projectId,
    issue_title: n.issueTitle,
    ...activityFields(n),
    read: readAt !== null && n.at <= readAt,
  };
}
