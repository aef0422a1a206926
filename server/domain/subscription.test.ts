import { describe, expect, it } from 'vitest';
import {
  accessStateOf,
  addMonths,
  currentPeriod,
  organizationBlocker,
  planStatusOf,
  subscriptionFor,
  SUBSCRIPTION_STATES,
  type Subscription,
} from './subscription';

const t = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();

function paid(over: Partial<Subscription> = {}): Subscription {
  const r = subscriptionFor({ tier: 'pro' }, t('2026-01-31T10:00:00Z'));
  if (!r.ok) throw new Error(r.error);
  return { ...r.subscription, ...over };
}

describe('subscription rules', () => {
  it('maps each state to its access state and plan status', () => {
    expect(SUBSCRIPTION_STATES.map((s) => [s, accessStateOf(s), planStatusOf(s)])).toEqual([
      ['free', 'active', 'free'],
      ['trialing', 'active', 'trial'],
      ['active', 'active', 'active'],
      ['past_due', 'paused', 'past_due'],
      ['paused', 'paused', 'disabled'],
      ['canceled', 'paused', 'disabled'],
    ]);
  });

  it('adds calendar months, clamping to the month end', () => {
    expect(iso(addMonths(t('2026-01-31T00:00:00Z'), 1))).toBe('2026-02-28T00:00:00.000Z');
    expect(iso(addMonths(t('2028-01-31T00:00:00Z'), 1))).toBe('2028-02-29T00:00:00.000Z');
    expect(iso(addMonths(t('2028-02-29T00:00:00Z'), 12))).toBe('2029-02-28T00:00:00.000Z');
  });

  it('a paid plan starts its period today (UTC); free has none', () => {
    const s = paid();
    expect(iso(s.periodStart!)).toBe('2026-01-31T00:00:00.000Z');
    expect(iso(s.periodEnd!)).toBe('2026-02-28T00:00:00.000Z');
    expect(s).toMatchObject({ state: 'active', billingInterval: 'monthly' });
    expect(subscriptionFor({ tier: 'free' }, 0)).toEqual({
      ok: true,
      subscription: {
        tier: 'free',
        billingInterval: 'none',
        state: 'free',
        periodStart: null,
        periodEnd: null,
      },
    });
    expect(subscriptionFor({ tier: 'free', state: 'past_due' }, 0).ok).toBe(false);
    expect(subscriptionFor({ tier: 'pro', state: 'free' }, 0).ok).toBe(false);
    expect(subscriptionFor({ tier: 'scale', interval: 'none' }, 0).ok).toBe(false);
  });

  it('an active subscription renews in whole intervals; a past-due one keeps its period', () => {
    const now = t('2026-04-15T00:00:00Z');
    const active = currentPeriod(paid(), now);
    expect(active && [iso(active.start), iso(active.end)]).toEqual([
      '2026-03-31T00:00:00.000Z',
      '2026-04-30T00:00:00.000Z',
    ]);
    const due = currentPeriod(paid({ state: 'past_due' }), now);
    expect(due && iso(due.end)).toBe('2026-02-28T00:00:00.000Z');
  });

  it('blocks organization creation: free, then inactive, then the organization limit', () => {
    const free = subscriptionFor({ tier: 'free' }, 0);
    if (!free.ok) throw new Error();
    expect(organizationBlocker(free.subscription, 0)).toBe('subscription_required');
    expect(organizationBlocker(paid({ state: 'canceled' }), 0)).toBe('subscription_inactive');
    expect(organizationBlocker(paid(), 3)).toBe('organization_limit_exceeded');
    expect(organizationBlocker(paid(), 2)).toBeNull();
    expect(organizationBlocker(paid({ state: 'trialing' }), 0)).toBeNull();
  });
});
