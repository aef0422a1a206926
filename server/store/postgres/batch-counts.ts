import { randomUUID } from 'node:crypto';
import { exceededLimit, utcDay, type Stream, type UsageByStream } from '../../domain/usage';
import type { Batch, IssueEvent } from '../../core/batch';
import {
  QuotaExceededError,
  type NewItems,
  type QuotaContext,
} from '../../core/store/telemetry/ingest';
import { contextsOf, droppedToCount, storedItems, usageAdded } from '../rows/accepted-items';
import type { StoredItem } from '../rows/release-row-deltas';
import { accountUsageStatement, toUsageByStream, type StreamUsageDbRow } from '../rows/usage';
import { sql } from '../rows/sql';
import { activityWriter } from './issue-activity-writer';
import { byKey } from './key-order';
import { countOccurrenceHours } from './occurrence-hours';
import type { Sql } from './pg-database';
import { asStoredText } from './pg-text';
import { rollUpReleases } from './release-rollup';
import { rollUpVolume } from './volume-rollup';

/*
 * What a batch's transaction counts on PostgreSQL, whichever engine keeps its telemetry rows:
 * the PostgreSQL-only ingest (telemetry/postgres/ingest.ts) and the commit of a batch written
 * to ClickHouse (state/postgres/ingest-commits.ts) run the same statements for issue groups,
 * the exact quota, contexts, rollups, usage and dropped counts.
 */

const json = (v: unknown) => JSON.stringify(v);

export type IssueState = {
  id: string;
  isNew: boolean;
  status: string;
  occurrenceCount: number;
  firstSeenAt: number;
  lastSeenAt: number;
  latestSeq: number;
};

/**
 * The first quota `added` passes, given the account's usage as this transaction sees it
 * (the caller holds the account's lock): a throw rolls the transaction back.
 */
export async function checkQuota(
  tx: Sql,
  quota: QuotaContext,
  added: UsageByStream,
): Promise<void> {
  const exceeded = exceededLimit(
    toUsageByStream(
      await tx.rows<StreamUsageDbRow>(accountUsageStatement(quota.accountId, quota.periodStart)),
    ),
    added,
    quota.quotas,
  );
  if (exceeded) throw new QuotaExceededError(exceeded);
}

/**
 * Admits a batch's new items: the groups their occurrences join (stored ones locked in
 * fingerprint order, see `groupIssues`), the items with their groups, and what they add to
 * usage, checked against the quota first (a throw rolls the transaction back).
 */
export async function admitNewItems<I extends IssueEvent>(
  tx: Sql,
  projectId: string,
  quota: QuotaContext,
  fresh: Omit<NewItems, 'issues' | 'issueGroups'> & { issues: I[] },
  newId?: (occurrence: I) => string,
): Promise<{
  groups: Map<string, IssueState>;
  newItems: NewItems;
  items: StoredItem[];
  added: UsageByStream;
}> {
  const groups = await groupIssues(tx, projectId, fresh.issues, newId);
  const newItems: NewItems = {
    ...fresh,
    issueGroups: fresh.issues.map((i) => groups.get(asStoredText(i.fingerprint))?.id ?? ''),
  };
  const items = storedItems(newItems);
  const added = usageAdded(items);
  if (items.length > 0) await checkQuota(tx, quota, added);
  return { groups, newItems, items, added };
}

/**
 * Counts the items a batch really stored: new contexts, the release and volume rollups,
 * usage (`added`) and the SDK's dropped counts. Whether a context was new.
 */
export async function countStored(
  tx: Sql,
  projectId: string,
  batch: Pick<Batch, 'dropped'>,
  items: readonly StoredItem[],
  added: UsageByStream,
  receivedAt: number,
): Promise<boolean> {
  let contextUpdated = false;
  const contexts = contextsOf(items).sort(byKey((c) => [c.release, c.environment, c.service_name]));
  if (contexts.length > 0) {
    const inserted =
      await tx.rows(sql`INSERT INTO project_contexts (project_id, release, environment, service_name, first_seen_at)
       SELECT ${projectId}, u.release, u.environment, u.service_name, ${receivedAt}
       FROM unnest(${contexts.map((c) => c.release)}::text[],
       ${contexts.map((c) => c.environment)}::text[],
       ${contexts.map((c) => c.service_name)}::text[]) AS u(release, environment, service_name)
       ON CONFLICT DO NOTHING
       RETURNING 1`);
    contextUpdated = inserted.length > 0;
  }
  if (items.length > 0) {
    await rollUpReleases(tx, projectId, items);
    await rollUpVolume(tx, projectId, items);
  }
  const day = utcDay(receivedAt);
  const usage = (Object.entries(added) as [Stream, { events: number; bytes: number }][]).filter(
    ([, u]) => u.events > 0,
  );
  if (usage.length > 0)
    await tx.run(sql`INSERT INTO usage_counters (project_id, day, stream, events, bytes)
       SELECT ${projectId}, ${day}, * FROM unnest(${usage.map(([s]) => s)}::text[],
       ${usage.map(([, u]) => u.events)}::bigint[], ${usage.map(([, u]) => u.bytes)}::bigint[])
       ON CONFLICT (project_id, day, stream) DO UPDATE SET
         events = usage_counters.events + excluded.events,
         bytes = usage_counters.bytes + excluded.bytes`);
  const dropped = droppedToCount(batch.dropped, items.length).sort(byKey((d) => [d.reason]));
  if (dropped.length > 0)
    await tx.run(sql`INSERT INTO sdk_dropped_counters (project_id, day, reason, events)
       SELECT ${projectId}, ${day}, * FROM unnest(${dropped.map((d) => d.reason)}::text[],
       ${dropped.map((d) => d.events)}::bigint[])
       ON CONFLICT (project_id, day, reason) DO UPDATE SET
         events = sdk_dropped_counters.events + excluded.events`);

  return contextUpdated;
}

/**
 * The issue group of each fingerprint of the new occurrences: the stored one, locked for
 * this transaction in fingerprint order, or a new one (created by `storeOccurrences`) whose
 * id is `newId` of its first occurrence (a new id, unless the caller chose it before).
 */
export async function groupIssues<I extends IssueEvent>(
  tx: Sql,
  projectId: string,
  issues: readonly I[],
  newId: (occurrence: I) => string = () => randomUUID(),
): Promise<Map<string, IssueState>> {
  const groups = new Map<string, IssueState>();
  if (issues.length === 0) return groups;
  const fingerprints = [...new Set(issues.map((i) => i.fingerprint))];
  const rows = await tx.rows<{
    id: string;
    fingerprint: string;
    status: string;
    occurrence_count: number;
    first_seen_at: number;
    last_seen_at: number;
    latest_occurrence_seq: number;
  }>(sql`SELECT id, fingerprint, status, occurrence_count, first_seen_at, last_seen_at,
       latest_occurrence_seq
     FROM issues WHERE project_id = ${projectId} AND fingerprint = ANY(${fingerprints}::text[])
     ORDER BY fingerprint FOR UPDATE`);
  for (const r of rows)
    groups.set(r.fingerprint, {
      id: r.id,
      isNew: false,
      status: r.status,
      occurrenceCount: r.occurrence_count,
      firstSeenAt: r.first_seen_at,
      lastSeenAt: r.last_seen_at,
      latestSeq: r.latest_occurrence_seq,
    });
  for (const i of issues)
    if (!groups.has(asStoredText(i.fingerprint)))
      groups.set(asStoredText(i.fingerprint), {
        id: newId(i),
        isNew: true,
        status: 'unresolved',
        occurrenceCount: 0,
        firstSeenAt: i.occurredAt,
        lastSeenAt: i.occurredAt,
        latestSeq: 0,
      });
  return groups;
}

/**
 * Stores new occurrences and applies them to their groups in batch order, with the rules of
 * the SQLite store's single-row update: the group shows its newest occurrence (an older one
 * arriving late changes only counts and first_seen_at); a resolved issue that occurs again,
 * not older than anything seen, is a regression and becomes unresolved (an activity entry
 * made by no account); archived stays archived. `keep`: every occurrence (they are the
 * telemetry), or only each touched group's first and latest (the issue reads show them; the
 * occurrences themselves are in ClickHouse).
 */
export async function storeOccurrences(
  tx: Sql,
  projectId: string,
  issues: readonly IssueEvent[],
  groups: Map<string, IssueState>,
  receivedAt: number,
  keep: 'all' | 'first-and-latest' = 'all',
): Promise<void> {
  const groupOf = (i: IssueEvent) => {
    const g = groups.get(asStoredText(i.fingerprint));
    if (!g) throw new Error('occurrence without a group');
    return g;
  };
  const inserted = await tx.rows<{
    id: string;
    seq: number;
  }>(sql`INSERT INTO issue_occurrences (id, project_id, issue_id, occurred_at, severity, title,
       message, exception, stack_trace, attributes, environment, release, service_name,
       trace_id, span_id, breadcrumbs, breadcrumbs_truncated, sdk_name, sdk_version, received_at)
     SELECT u.id, ${projectId}, u.issue_id, u.occurred_at, u.severity, u.title, u.message,
     u.exception,
       u.stack_trace, u.attributes, u.environment, u.release, u.service_name, u.trace_id,
       u.span_id, u.breadcrumbs, u.breadcrumbs_truncated, u.sdk_name, u.sdk_version, ${receivedAt}
     FROM unnest(${issues.map((i) => i.id)}::text[], ${issues.map((i) => groupOf(i).id)}::text[],
     ${issues.map((i) => i.occurredAt)}::bigint[], ${issues.map((i) => i.severity)}::text[],
     ${issues.map((i) => i.title)}::text[], ${issues.map((i) => i.message)}::text[],
       ${issues.map((i) => (i.exception ? json(i.exception) : null))}::text[],
       ${issues.map((i) => i.stackTrace)}::text[], ${issues.map((i) => json(i.attributes))}::text[],
       ${issues.map((i) => i.environment)}::text[], ${issues.map((i) => i.release)}::text[],
       ${issues.map((i) => i.service_name)}::text[], ${issues.map((i) => i.traceId)}::text[],
       ${issues.map((i) => i.spanId)}::text[],
       ${issues.map((i) => (i.breadcrumbs ? json(i.breadcrumbs) : null))}::text[],
       ${issues.map((i) => (i.breadcrumbsTruncated ? 1 : 0))}::int[],
       ${issues.map((i) => i.sdk.name)}::text[], ${issues.map((i) => i.sdk.version)}::text[])
       WITH ORDINALITY AS u(id, issue_id, occurred_at, severity, title, message, exception,
         stack_trace, attributes, environment, release, service_name, trace_id, span_id,
         breadcrumbs, breadcrumbs_truncated, sdk_name, sdk_version, n)
     ORDER BY u.n
     RETURNING id, seq`);
  const seqOf = new Map(inserted.map((r) => [r.id, r.seq]));

  const regressions: IssueState[] = [];
  for (const i of issues) {
    const g = groupOf(i);
    const at = i.occurredAt;
    // Every rule reads the group as it was before this occurrence.
    const regression = g.status === 'resolved' && at >= g.lastSeenAt;
    if (g.latestSeq === 0 || at >= g.lastSeenAt) g.latestSeq = seqOf.get(i.id) ?? g.latestSeq;
    g.occurrenceCount += 1;
    g.firstSeenAt = Math.min(g.firstSeenAt, at);
    g.lastSeenAt = Math.max(g.lastSeenAt, at);
    if (regression) {
      g.status = 'unresolved';
      regressions.push(g);
    }
  }

  const touched = [...new Set(issues.map(groupOf))];
  const fresh = touched.filter((g) => g.isNew);
  const fingerprintOf = new Map(issues.map((i) => [groupOf(i).id, i.fingerprint]));
  if (fresh.length > 0)
    await tx.run(sql`INSERT INTO issues (id, project_id, fingerprint, status, occurrence_count, first_seen_at,
         last_seen_at, latest_occurrence_seq)
       SELECT u.id, ${projectId}, u.fingerprint, 'unresolved', u.occurrence_count, u.first_seen_at,
         u.last_seen_at, u.latest_occurrence_seq
       FROM unnest(${fresh.map((g) => g.id)}::text[],
       ${fresh.map((g) => fingerprintOf.get(g.id) ?? '')}::text[],
       ${fresh.map((g) => g.occurrenceCount)}::bigint[],
       ${fresh.map((g) => g.firstSeenAt)}::bigint[], ${fresh.map((g) => g.lastSeenAt)}::bigint[],
       ${fresh.map((g) => g.latestSeq)}::bigint[])
         AS u(id, fingerprint, occurrence_count, first_seen_at, last_seen_at, latest_occurrence_seq)`);
  const stored = touched.filter((g) => !g.isNew).sort(byKey((g) => [g.id]));
  if (stored.length > 0)
    await tx.run(sql`UPDATE issues i SET occurrence_count = u.occurrence_count, first_seen_at = u.first_seen_at,
         last_seen_at = u.last_seen_at, latest_occurrence_seq = u.latest_occurrence_seq,
         status = u.status
       FROM unnest(${stored.map((g) => g.id)}::text[],
       ${stored.map((g) => g.occurrenceCount)}::bigint[],
       ${stored.map((g) => g.firstSeenAt)}::bigint[], ${stored.map((g) => g.lastSeenAt)}::bigint[],
       ${stored.map((g) => g.latestSeq)}::bigint[], ${stored.map((g) => g.status)}::text[])
         AS u(id, occurrence_count, first_seen_at, last_seen_at, latest_occurrence_seq, status)
       WHERE i.id = u.id`);
  if (keep === 'first-and-latest') {
    const ids = touched.map((g) => g.id).sort();
    await tx.run(sql`DELETE FROM issue_occurrences o WHERE o.issue_id = ANY(${ids}::text[])
       AND o.seq <> (SELECT latest_occurrence_seq FROM issues WHERE id = o.issue_id)
       AND o.seq <> (SELECT f.seq FROM issue_occurrences f WHERE f.issue_id = o.issue_id
         ORDER BY f.occurred_at, f.id LIMIT 1)`);
  }
  await countOccurrenceHours(
    tx,
    issues.map((i) => ({ issueId: groupOf(i).id, occurredAt: i.occurredAt })),
  );
  const writeActivity = activityWriter(tx);
  for (const g of regressions)
    await writeActivity(
      g.id,
      projectId,
      { type: 'status', value: 'unresolved', assigneeAccountId: null, assigneeTeamId: null },
      null,
      receivedAt,
    );
}
