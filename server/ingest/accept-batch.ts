import type { Deps } from '../core/deps';
import { ApiError } from '../core/api-error';
import type { FeedMessage } from '../core/feed-hub';
import { QuotaExceededError, type AcceptResult } from '../core/store/telemetry/ingest';
import { usagePeriod } from '../domain/usage';
import { issueViewV1 } from '../views/issue-views';
import { actionView, logView, spanView } from '../views/telemetry-views';
import type { Batch } from '../core/batch';

/**
 * Stores a validated batch against its account's quota, then publishes what was stored to
 * the live feed. Publishing happens only after the store has committed, so a client never
 * sees an event that a failure then took back.
 */
export async function acceptBatch(deps: Deps, batch: Batch): Promise<AcceptResult> {
  const now = deps.now();
  const billing = await deps.store.usage.billingAccountOf(batch.projectId);
  if (!billing) throw new Error('project has no owning account');
  const period = usagePeriod(now);
  let result: AcceptResult;
  const plan = deps.config.planQuotas[billing.tier];
  try {
    result = await deps.store.ingest.accept(batch, now, {
      accountId: billing.accountId,
      periodStart: period.start,
      quotas: plan,
      retentionDays: plan.retention_days,
    });
  } catch (e) {
    if (e instanceof QuotaExceededError) throw usageLimitExceeded(e.limit, period.end);
    throw e;
  }
  void publish(deps, result).catch(() => deps.log.error('live feed publish failed'));
  return result;
}

function usageLimitExceeded(limit: string, resetAt: number): ApiError {
  const reset = new Date(resetAt).toISOString();
  return new ApiError({
    status: 429,
    code: 'usage_limit_exceeded',
    error: `the account reached its ${limit} allowance for this usage period`,
    next: `Do not resend this telemetry type until ${reset}, or change the plan. Other types are still accepted.`,
    nextAction: { code: 'wait_until_reset_or_upgrade', target: 'pricing', limit, reset_at: reset },
    extra: { limit, reset_at: reset },
  });
}

async function publish(deps: Deps, result: AcceptResult): Promise<void> {
  // Building every record's view costs more than the write itself when nobody listens.
  const reach = await deps.feed.reach();
  if (!reach.here && !reach.elsewhere) return;
  const { stored } = result;
  const projectId = stored.projectId;
  const messages: FeedMessage[] = [];
  const issues = await deps.store.issues.records(result.issueIds);
  for (const i of issues) messages.push({ type: 'native_issue', data: issueViewV1(i) });
  // Live logs show the same triage as reads, so an ignored kind is marked ignored here too.
  const rules = await deps.store.logs.rulesFor(
    projectId,
    stored.logs.map((l) => l.id),
  );
  for (const l of stored.logs)
    messages.push({
      type: 'native_log',
      data: logView({ ...l, projectId, rule: rules.get(l.id) ?? null }),
    });
  for (const s of stored.spans)
    messages.push({ type: 'native_trace_span', data: spanView({ ...s, projectId }) });
  for (const a of stored.actions)
    messages.push({ type: 'native_action', data: actionView({ ...a, projectId }) });
  await deps.feed.publish(projectId, messages, reach.elsewhere);
}
