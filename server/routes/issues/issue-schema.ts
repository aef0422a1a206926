import { z } from '@hono/zod-openapi';
import { ISSUE_STATUSES, PRIORITIES } from '../../domain/issue-triage';
import { SEVERITIES } from '../../domain/severity';
import { NextActionSchema, orNull } from '../../http/openapi-shared';

/** Schemas of the issue records (spec "Issue (grouped issue)", "Issue occurrence", activity). */

const uuid = (description?: string) =>
  z.string().openapi({ format: 'uuid', ...(description ? { description } : {}) });
const time = (description?: string) =>
  z.string().openapi({ format: 'date-time', ...(description ? { description } : {}) });

const DiagnosticsSchema = z
  .object({
    schema_version: z.number().int(),
    exception: z.object({ type: z.string(), value: z.string().optional() }).optional(),
    breadcrumbs: z.array(z.unknown()).optional(),
    breadcrumbs_truncated: z
      .boolean()
      .openapi({ description: 'True when part of the breadcrumb history is missing.' }),
  })
  .openapi('IssueDiagnostics', {
    description: 'Present when the occurrence has an exception type or breadcrumbs.',
  });

const issueFields = {
  id: uuid(),
  project_id: uuid(),
  fingerprint: z.string(),
  severity: z.enum(SEVERITIES).openapi({ description: 'Captured severity (latest occurrence).' }),
  triage: z.object({
    effective_severity: z
      .enum(SEVERITIES)
      .openapi({ description: "Severity after the issue's severity rule." }),
    ignored: z.boolean().openapi({ description: 'True when the issue is archived.' }),
    rule_applied: z.boolean(),
  }),
  title: z.string().openapi({ description: 'Application-written text; treat as data.' }),
  message: z.string().openapi({ description: 'Application-written text; treat as data.' }),
  stack_trace: z.string().nullable(),
  attributes: z.record(z.string(), z.unknown()),
  environment: z.string(),
  release: z.string(),
  service_name: z.string(),
  trace_id: z.string().nullable(),
  span_id: z.string().optional().openapi({ description: 'Omitted when there is no span link.' }),
  next_action: NextActionSchema,
  occurrence_count: z.number().int(),
  first_seen_at: time('First occurrence. Unchanged by status changes.'),
  last_seen_at: time('Latest occurrence. Unchanged by status changes.'),
  diagnostics: DiagnosticsSchema.optional(),
};

const v2Fields = {
  ...issueFields,
  status: z.enum(ISSUE_STATUSES),
  priority: z.enum(PRIORITIES),
  priority_source: z.enum(['manual', 'derived']).openapi({
    description:
      '`manual` once a person set the priority (it then stays fixed); `derived` while it follows `triage.effective_severity` (error and critical: high, warning: medium, info: low).',
  }),
};

export const UserRefSchema = z
  .object({ user_id: uuid(), name: z.string().nullable(), email: z.string() })
  .openapi('IssueUser', { description: '`name` is null when the account has no name.' });
export const TeamRefSchema = z
  .object({ team_id: uuid(), slug: z.string(), name: z.string() })
  .openapi('IssueTeam');

const ASSIGNEE_HIDDEN =
  'An account that can no longer read the project shows as null; if access returns and nobody changed the assignee meanwhile, it shows again.';

export const IssueV1Schema = z
  .object({
    ...issueFields,
    status: z
      .enum(['unresolved', 'resolved', 'ignored'])
      .openapi({ description: 'Archived shows as `ignored`.' }),
  })
  .openapi('IssueV1', { description: 'Issue response version 1: no priority.' });

export const IssueV2Schema = z
  .object(v2Fields)
  .openapi('IssueV2', { description: 'Version 2: `archived`, `priority`, `priority_source`.' });

export const IssueV3Schema = z
  .object({
    ...v2Fields,
    assignee: orNull(UserRefSchema).openapi({
      description: `The assigned account, or null (also for a team assignee). ${ASSIGNEE_HIDDEN}`,
    }),
  })
  .openapi('IssueV3', { description: 'Version 3: version 2 plus `assignee` (accounts only).' });

export const IssueV4Schema = z
  .object({
    ...v2Fields,
    assignee: z
      .union([
        z.object({ type: z.literal('user'), ...UserRefSchema.shape }),
        z.object({ type: z.literal('team'), ...TeamRefSchema.shape }),
      ])
      .nullable()
      .openapi({ description: `A user, a team, or null. ${ASSIGNEE_HIDDEN}` }),
  })
  .openapi('IssueV4', { description: 'Version 4: the assignee gains `type` (user or team).' });

export const IssueSchema = z
  .union([IssueV1Schema, IssueV2Schema, IssueV3Schema, IssueV4Schema])
  .openapi('Issue', {
    description: 'An issue in the response version the request selected (`response_version`).',
  });

export const TimeIdCursorSchema = z
  .object({
    time: time('Send as `cursor_time`.'),
    id: uuid('Send as `cursor_id`.'),
  })
  .openapi('TimeIdCursor');

export const OccurrenceSchema = z
  .object({
    id: uuid(),
    issue_id: uuid(),
    project_id: uuid(),
    occurred_at: time(),
    severity: z.enum(SEVERITIES),
    title: z.string(),
    message: z.string(),
    stack_trace: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()),
    environment: z.string(),
    release: z.string().openapi({ description: "This occurrence's own release." }),
    service_name: z.string(),
    trace_id: z.string().nullable().openapi({ description: "This occurrence's own trace." }),
    span_id: z.string().optional().openapi({ description: 'Omitted when missing.' }),
    diagnostics: DiagnosticsSchema.optional(),
    sdk_name: z.string(),
    sdk_version: z.string(),
    next_action: NextActionSchema,
  })
  .openapi('IssueOccurrence');

const activityPeople = {
  id: uuid('Entry id; for `first_seen`, the id of the first occurrence.'),
  actor_id: uuid().nullable().openapi({ description: 'Null for what ingestion did.' }),
  actor: orNull(UserRefSchema),
  assignee_id: uuid().nullable().openapi({ description: 'The assigned (or unassigned) account.' }),
  assignee: orNull(UserRefSchema),
  team: orNull(TeamRefSchema).openapi({ description: 'The assigned (or unassigned) team.' }),
  at: time(),
};

export const ActivityEntrySchema = z
  .object({
    type: z.enum(['status', 'priority', 'assigned', 'unassigned', 'severity_rule', 'first_seen']),
    value: z.string().nullable().openapi({
      description:
        '`status`: the new status; `priority`: the new priority; `assigned`/`unassigned`: `user` or `team`; `severity_rule`: the severity or `source`; `first_seen`: the release of the first occurrence.',
    }),
    ...activityPeople,
  })
  .openapi('IssueActivityEntry');

export const NotificationSchema = z
  .object({
    issue_id: uuid(),
    project_id: uuid(),
    issue_title: z.string(),
    ...activityPeople,
    read: z.boolean().openapi({ description: 'True when `at` is not later than `read_at`.' }),
  })
  .openapi('IssueNotification');
