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
import {
  comparisonOf,
  parseCondition,
  windowMinutesOf,
  type RuleCondition,
} from './alert-conditions';
import { measure } from './alert-measure';
import { incidentDelivery } from './delivery-payload';
import { measureLogGroups } from './log-rule-groups';
import { viewUrlOf } from './view-url';

/** A restart catches up at most this many missed windows per rule (the older ones are skipped). */
export const MAX_CATCH_UP_WINDOWS = 60;
/**
 * Rules taken (and claimed) per round; a round repeats until no rule is due. Log rules of a
 * round that share a project and window are read together, so a round is large.
 */
const ROUND = 500;
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
    // The round's rules are claimed first, so their log reads can be grouped (rules of another
    // instance are not read at all).
    const leaseMs = Math.max(5 * 60_000, 2 * d.everyMs);
    const claimed: AlertRuleRecord[] = [];
    for (const rule of due)
      if (await d.store.alerts.claimRule(rule.id, d.holder, now, now + leaseMs)) claimed.push(rule);
    // One rule's failure is kept on it and the pass goes on with the others.
    const failed = async (rule: AlertRuleRecord, err: unknown) => {
      d.log.error(`alerts: rule ${rule.id} not evaluated (${String(err)})`);
      await d.store.alerts
        .recordRuleError(rule.id, { ...failureOf(rule, err), at: now })
        .catch((e: unknown) => d.log.error(`alerts: rule ${rule.id}: ${String(e)}`));
    };
    try {
      const plans: RulePlan[] = [];
      for (const rule of claimed) {
        try {
          const plan = await planRule(d, rule, end);
          if (plan !== null) plans.push(plan);
        } catch (err) {
          await failed(rule, err);
        }
      }
      const grouped = await measureLogGroups(
        d.store,
        plans.flatMap((p) =>
          p.condition.kind === 'log'
            ? [
                {
                  ruleId: p.rule.id,
                  projectId: p.rule.projectId,
                  condition: p.condition.condition,
                  windowMs: p.windowMs,
                  ends: p.ends,
                },
              ]
            : [],
        ),
        d.log,
      );
      const one = async (plan: RulePlan) => {
        try {
          // Read after the await: `recorded += await …` would add to a stale total.
          const windows = await evaluatePlanned(d, plan, grouped.get(plan.rule.id) ?? null);
          recorded += windows;
        } catch (err) {
          await failed(plan.rule, err);
        }
      };
      // A few rules at once, in the order taken: each waits mostly on its telemetry read.
      let next = 0;
      const worker = async () => {
        while (next < plans.length) await one(plans[next++] as RulePlan);
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENT_RULES, plans.length) }, worker));
    } finally {
      for (const rule of claimed)
        await d.store.alerts
          .releaseRule(rule.id, d.holder)
          .catch((e: unknown) => d.log.error(`alerts: rule ${rule.id}: ${String(e)}`));
    }
  }
}

/**
 * What a rule shows of its failed evaluation: a refusal of the service's own (a condition
 * that no longer reads, say) as it is; any other failure, a failed read, in words that leave
 * the internals in the log.
 */
function failureOf(rule: AlertRuleRecord, err: unknown): { error: string; next: string } {
  // A saved condition that no longer reads (saved by an earlier version, say): the request's
  // advice would speak of a request the user never sent.
  if (err instanceof ApiError && err.code === 'validation_failed')
    return {
      error: `This rule's saved condition no longer reads: ${err.message}.`,
      next: 'Correct it in the editor on this page and save the rule: the next interval evaluates it again. Its windows are not evaluated until then.',
    };
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

/** A claimed rule as read again under its lease, with its condition and pending windows. */
type RulePlan = {
  rule: AlertRuleRecord;
  condition: RuleCondition;
  windowMs: number;
  ends: number[];
};

/** The rule's plan, or null when it has nothing to evaluate (gone, disabled or up to date). */
async function planRule(
  d: EvaluatorDeps,
  rule: AlertRuleRecord,
  end: number,
): Promise<RulePlan | null> {
  // Read again under the lease: another instance may have moved it since `dueRules`.
  const fresh = await d.store.alerts.rule(rule.id);
  if (!fresh || !fresh.enabled) return null;
  const condition = parseCondition(fresh.kind, fresh.condition);
  const ends = pendingWindowEnds(fresh.evaluatedThrough, end, d.everyMs);
  if (ends.length === 0) return null;
  const windowMs = windowMinutesOf(condition, d.everyMs / 60_000) * 60_000;
  return { rule: fresh, condition, windowMs, ends };
}

/**
 * Records the plan's windows in order, opening or resolving the incident. `measured` holds the
 * values of a grouped read (one per window end); without them each window is read here.
 */
async function evaluatePlanned(
  d: EvaluatorDeps,
  { rule: fresh, condition, windowMs, ends }: RulePlan,
  measured: number[] | null,
): Promise<number> {
  const { op, threshold } = comparisonOf(condition);
  const resolveAt = fresh.resolveThreshold ?? threshold;
  let open = await d.store.alerts.openIncident(fresh.id);
  let from = fresh.evaluatedThrough;
  let recorded = 0;
  for (const [n, windowEnd] of ends.entries()) {
    const now = d.now();
    const windowStart = windowEnd - windowMs;
    const [value = null] =
      measured?.[n] !== undefined
        ? [measured[n]]
        : await measure(
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
