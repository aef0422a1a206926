import { ApiError } from '../core/api-error';
import type { Logger } from '../core/logger';
import type {
  AlertEvaluation,
  AlertIncidentRecord,
  AlertNotificationRecord,
  AlertRuleRecord,
} from '../core/store/state/alerts';
import type { Store } from '../core/store/store';
import { newId } from '../domain/secrets';
import { comparisonOf, parseCondition, windowMinutesOf } from './alert-conditions';
import { measure } from './alert-measure';
import { incidentDelivery } from './delivery-payload';
import { viewUrlOf } from './view-url';

/** A restart catches up at most this many missed windows per rule (the older ones are skipped). */
export const MAX_CATCH_UP_WINDOWS = 60;
/** Rules taken per round; a round repeats until no rule is due. */
const ROUND = 100;
/**
 * Rules evaluated at once within a round. A rule's time is mostly its telemetry read (one
 * count or series query, 5–40 ms on the embedded engine at 10M logs), so a few in flight
 * keep the engine's sessions busy without one rule's reads queueing behind another's.
 */
const CONCURRENT_RULES = 4;

export type EvaluatorDeps = {
  store: Store;
  now: () => number;
  log: Pick<Logger, 'error'>;
  /** The evaluation interval: windows end on its multiples. */
  everyMs: number;
  /** This instance's name in the rule leases. */
  holder: string;
};

/** The end of the latest whole interval at `now`. */
export const windowEndAt = (now: number, everyMs: number) => Math.floor(now / everyMs) * everyMs;

/** Past the threshold in the firing direction. */
export const breaches = (op: 'above' | 'below', value: number, threshold: number) =>
  op === 'above' ? value > threshold : value < threshold;

/**
 * Back past the resolve threshold (hysteresis): `above` resolves at or below it, `below` at or
 * above it; without one, the threshold itself.
 */
export const recovers = (op: 'above' | 'below', value: number, resolveAt: number) =>
  op === 'above' ? value <= resolveAt : value >= resolveAt;

/**
 * Evaluates every due rule once per interval window. Each rule is taken under its lease (one
 * instance evaluates it), and each window is recorded with a conditional move of the rule's
 * progress, so a window is never recorded twice even if leases overlap. Returns the windows
 * recorded.
 */
export async function evaluateDueRules(d: EvaluatorDeps): Promise<number> {
  let recorded = 0;
  const seen = new Set<string>();
  for (;;) {
    const now = d.now();
    const end = windowEndAt(now, d.everyMs);
    // Rules already tried this pass (a failed one stays due) are skipped, not refetched forever.
    const due = (await d.store.alerts.dueRules(now, end, ROUND + seen.size)).filter(
      (r) => !seen.has(r.id),
    );
    if (due.length === 0) return recorded;
    for (const rule of due) seen.add(rule.id);
    const one = async (rule: AlertRuleRecord) => {
      const leaseMs = Math.max(5 * 60_000, 2 * d.everyMs);
      if (!(await d.store.alerts.claimRule(rule.id, d.holder, now, now + leaseMs))) return;
      try {
        // Read after the await: `recorded += await …` would add to a stale total.
        const windows = await evaluateRule(d, rule, end);
        recorded += windows;
      } catch (err) {
        // One rule's failure is kept on it and the pass goes on with the others.
        d.log.error(`alerts: rule ${rule.id} not evaluated (${String(err)})`);
        await d.store.alerts
          .recordRuleError(rule.id, { ...failureOf(rule, err), at: now })
          .catch((e: unknown) => d.log.error(`alerts: rule ${rule.id}: ${String(e)}`));
      } finally {
        await d.store.alerts.releaseRule(rule.id, d.holder);
      }
    };
    // A few rules at once, in the order taken: each waits mostly on its telemetry read.
    let next = 0;
    const worker = async () => {
      while (next < due.length) await one(due[next++] as AlertRuleRecord);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_RULES, due.length) }, worker));
  }
}

/**
 * What a rule shows of its failed evaluation: a refusal of the service's own (a condition
 * that no longer reads, say) as it is; any other failure, a failed read, in words that leave
 * the internals in the log.
 */
function failureOf(rule: AlertRuleRecord, err: unknown): { error: string; next: string } {
  if (err instanceof ApiError) return { error: err.message, next: err.next };
  return {
    error: `Reading this rule's ${rule.kind} data failed, so its window was not evaluated.`,
    next: 'Nothing to do if it passes: every interval the window is tried again and missed windows are caught up. If it stays, check the rule’s query in the editor or ask support.',
  };
}

/** The window ends a rule has to evaluate up to `end`: after its progress, at most the catch-up. */
export function pendingWindowEnds(
  evaluatedThrough: number | null,
  end: number,
  everyMs: number,
): number[] {
  if (evaluatedThrough === null) return [end];
  const ends: number[] = [];
  for (let t = end; t > evaluatedThrough && ends.length < MAX_CATCH_UP_WINDOWS; t -= everyMs)
    ends.unshift(t);
  return ends;
}

async function evaluateRule(d: EvaluatorDeps, rule: AlertRuleRecord, end: number): Promise<number> {
  // Read again under the lease: another instance may have moved it since `dueRules`.
  const fresh = await d.store.alerts.rule(rule.id);
  if (!fresh || !fresh.enabled) return 0;
  const condition = parseCondition(fresh.kind, fresh.condition);
  const { op, threshold } = comparisonOf(condition);
  const resolveAt = fresh.resolveThreshold ?? threshold;
  const windowMs = windowMinutesOf(condition, d.everyMs / 60_000) * 60_000;
  let open = await d.store.alerts.openIncident(fresh.id);
  let from = fresh.evaluatedThrough;
  let recorded = 0;
  for (const windowEnd of pendingWindowEnds(from, end, d.everyMs)) {
    const now = d.now();
    const windowStart = windowEnd - windowMs;
    const [value = null] = await measure(
      d.store,
      condition,
      fresh.projectId,
      [{ start: windowStart, end: windowEnd }],
      now,
    );
    const e: AlertEvaluation = {
      ruleId: fresh.id,
      fromWindowEnd: from,
      windowEnd,
      incident: null,
      notifications: [],
      deliveries: [],
    };
    let next = open;
    if (value !== null && open === null && breaches(op, value, threshold)) {
      const record: AlertIncidentRecord = {
        id: newId(),
        ruleId: fresh.id,
        ruleName: fresh.name,
        projectId: fresh.projectId,
        kind: fresh.kind,
        state: 'firing',
        startedAt: windowEnd,
        resolvedAt: null,
        value,
        threshold,
        op,
        windowStart,
        windowEnd,
        viewUrl: viewUrlOf(condition, fresh.projectId, windowStart, windowEnd),
      };
      e.incident = { change: 'open', record };
      next = record;
      await notify(d, fresh, e, record, 'firing', now);
    } else if (value !== null && open !== null && recovers(op, value, resolveAt)) {
      e.incident = { change: 'resolve', incidentId: open.id, resolvedAt: windowEnd, value };
      const resolved: AlertIncidentRecord = {
        ...open,
        state: 'resolved',
        resolvedAt: windowEnd,
        value,
      };
      next = null;
      await notify(d, fresh, e, resolved, 'resolved', now);
    }
    // Another instance recorded this window first: stop; it holds the rule's progress now.
    if (!(await d.store.alerts.recordEvaluation(e))) return recorded;
    recorded += 1;
    open = next;
    from = windowEnd;
  }
  return recorded;
}

/** Adds the inbox notifications and webhook deliveries of an incident change (none while muted). */
async function notify(
  d: EvaluatorDeps,
  rule: AlertRuleRecord,
  e: AlertEvaluation,
  incident: AlertIncidentRecord,
  event: 'firing' | 'resolved',
  now: number,
): Promise<void> {
  if (rule.mutedUntil !== null && rule.mutedUntil > now) return;
  const at = event === 'firing' ? incident.startedAt : (incident.resolvedAt ?? now);
  for (const accountId of await recipientsOf(d.store, rule)) {
    const n: AlertNotificationRecord = {
      id: newId(),
      incidentId: incident.id,
      ruleId: rule.id,
      ruleName: rule.name,
      projectId: rule.projectId,
      accountId,
      event,
      at,
      value: incident.value,
      threshold: incident.threshold,
      viewUrl: incident.viewUrl,
    };
    e.notifications.push(n);
  }
  const webhooks = new Set((await d.store.alerts.webhooks(rule.organizationId)).map((w) => w.id));
  for (const id of rule.notify.webhook_ids)
    if (webhooks.has(id)) e.deliveries.push(incidentDelivery(id, `alert.${event}`, incident, now));
}

/** The inbox: the user if they still read the project, or the team's members. */
async function recipientsOf(store: Store, rule: AlertRuleRecord): Promise<string[]> {
  const inbox = rule.notify.inbox;
  if (inbox === null) return [];
  if ('user_id' in inbox) {
    const readers = await store.issues.readersOf(rule.projectId);
    return readers.some((r) => r.id === inbox.user_id) ? [inbox.user_id] : [];
  }
  return store.alerts.teamMemberIds(inbox.team_id);
}
