import { PLAN_TIERS, type PlanTier } from '../domain/plans';
import {
  BILLING_INTERVALS,
  SUBSCRIPTION_STATES,
  subscriptionFor,
  type BillingInterval,
  type Subscription,
  type SubscriptionState,
} from '../domain/subscription';
import type { StateStore } from '../core/store/store';

const oneOf = <T extends string>(values: readonly T[], v: string): v is T =>
  (values as readonly string[]).includes(v);

export type ChangePlanArgs = { email: string; tier: string; state?: string; interval?: string };

/**
 * `npm run account -- set-plan`: puts an account on a plan, in a subscription state. There is
 * no checkout in the reference service; this is how a demo or a test changes a plan.
 */
export async function changePlan(
  store: StateStore,
  args: ChangePlanArgs,
  now: number,
): Promise<
  { ok: true; accountId: string; subscription: Subscription } | { ok: false; error: string }
> {
  if (!oneOf<PlanTier>(PLAN_TIERS, args.tier))
    return { ok: false, error: `tier must be one of ${PLAN_TIERS.join(', ')}` };
  if (args.state !== undefined && !oneOf<SubscriptionState>(SUBSCRIPTION_STATES, args.state))
    return { ok: false, error: `--state must be one of ${SUBSCRIPTION_STATES.join(', ')}` };
  if (args.interval !== undefined && !oneOf<BillingInterval>(BILLING_INTERVALS, args.interval))
    return { ok: false, error: `--interval must be one of ${BILLING_INTERVALS.join(', ')}` };
  const account = await store.accounts.byEmail(args.email);
  if (!account) return { ok: false, error: `no account with the e-mail ${args.email}` };
  const plan = subscriptionFor(
    {
      tier: args.tier,
      ...(args.state === undefined ? {} : { state: args.state as SubscriptionState }),
      ...(args.interval === undefined ? {} : { interval: args.interval as BillingInterval }),
    },
    now,
  );
  if (!plan.ok) return plan;
  await store.usage.setPlan(account.id, plan.subscription);
  return { ok: true, accountId: account.id, subscription: plan.subscription };
}
