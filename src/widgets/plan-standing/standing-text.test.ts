import { describe, expect, it } from 'vitest';
import type { SubscriptionReadiness } from '../../api/queries/account';
import { formatUtcDay, periodTexts, standingRows } from './standing-text';

type State = SubscriptionReadiness['state'];

const limits = (n: number) => ({
  organizations: n && 3,
  members_per_organization: n && 10,
  projects_per_organization: n && 50,
  invitations_per_day: n && 20,
});

/** Readiness as the service answers it for each state (spec: Subscription readiness). */
function readiness(state: State): SubscriptionReadiness {
  const free = state === 'free';
  const paused = state === 'past_due' || state === 'paused' || state === 'canceled';
  return {
    account_id: 'a',
    tier: free ? 'free' : 'pro',
    billing_interval: free ? 'none' : 'monthly',
    state,
    access_state: paused ? 'paused' : 'active',
    current_period_start: free ? null : '2026-11-26T00:00:00.000Z',
    current_period_end: free ? null : '2026-12-26T00:00:00.000Z',
    renews_at:
      state === 'trialing' || state === 'active' || state === 'past_due'
        ? '2026-12-26T00:00:00.000Z'
        : null,
    cancels_at: state === 'canceled' ? '2026-12-26T00:00:00.000Z' : null,
    organization_creation_allowed: !free && !paused,
    organization_creation_blocker: free
      ? 'subscription_required'
      : paused
        ? 'subscription_inactive'
        : null,
    limits: limits(free ? 0 : 1),
    next: 'ignored',
    next_action: { code: 'choose_plan', target: 'pricing' },
  };
}

const usage = {
  period_start: '2026-11-01T00:00:00.000Z',
  period_end: '2026-12-01T00:00:00.000Z',
  reset_at: '2026-12-01T00:00:00.000Z',
  state: 'ok' as const,
  limit: null,
  percent_used: 12,
  warning_threshold: 0.8,
  usage: { events: 1_200, bytes: 50_000, projects: 2 },
};

const statuses = (state: State) =>
  standingRows(readiness(state), usage).map((r) => [r.action, r.status]);

describe('standingRows', () => {
  it.each([
    ['free', ['Accepted', 'Not on this plan', 'Not on this plan', 'Allowed']],
    ['trialing', ['Accepted', 'Allowed', 'Allowed', 'Allowed']],
    ['active', ['Accepted', 'Allowed', 'Allowed', 'Allowed']],
    ['past_due', ['Accepted', 'Paused', 'Paused', 'Paused']],
    ['paused', ['Accepted', 'Paused', 'Paused', 'Paused']],
    ['canceled', ['Accepted', 'Paused', 'Paused', 'Paused']],
  ] as const)('%s: telemetry, organizations, projects, ingest keys', (state, expected) => {
    expect(statuses(state)).toEqual(
      ['Sending telemetry', 'New organizations', 'New projects', 'New ingest keys'].map((a, i) => [
        a,
        expected[i],
      ]),
    );
  });

  it('says a paused subscription does not stop telemetry (the usage read says keep sending)', () => {
    const [telemetry] = standingRows(readiness('past_due'), usage);
    expect(telemetry?.detail).toMatch(/paused subscription does not stop it/);
    const [active] = standingRows(readiness('active'), usage);
    expect(active?.detail).not.toMatch(/paused/);
  });

  it('names the refused telemetry type when an allowance is used up', () => {
    const [telemetry] = standingRows(readiness('active'), {
      ...usage,
      state: 'blocked',
      limit: 'bytes',
      percent_used: 100,
    });
    expect(telemetry).toMatchObject({ status: 'Partly refused', tone: 'refused' });
    expect(telemetry?.detail).toMatch(/log bytes and metric bytes refused .* until 1 Dec 2026/);
  });

  it('says a use under 1% is under 1%, and nothing used is 0%', () => {
    const [some] = standingRows(readiness('active'), { ...usage, percent_used: 0 });
    expect(some?.detail).toContain('the fullest is at under 1%.');
    const [none] = standingRows(readiness('active'), {
      ...usage,
      percent_used: 0,
      usage: { events: 0, bytes: 0, projects: 1 },
    });
    expect(none?.detail).toContain('the fullest is at 0%.');
  });

  it('an account at its organization limit is told so', () => {
    const r = {
      ...readiness('active'),
      organization_creation_allowed: false,
      organization_creation_blocker: 'organization_limit_exceeded' as const,
    };
    expect(standingRows(r, usage)[1]).toMatchObject({ status: 'At the limit', tone: 'refused' });
  });
});

describe('periodTexts', () => {
  it('the usage period is the calendar month; the billing period starts with the plan', () => {
    const { usage: u, billing } = periodTexts(readiness('active'), usage);
    expect(u.range).toBe('1 Nov 2026 – 1 Dec 2026');
    expect(u.detail).toMatch(/calendar month .* reset on 1 Dec 2026/);
    expect(billing.range).toBe('26 Nov 2026 – 26 Dec 2026');
    expect(billing.detail).toMatch(/day the plan started and renews every month/);
    expect(billing.detail).toMatch(/does not reset allowances/);
  });

  it('the free plan has no billing period, only the usage period', () => {
    const { billing } = periodTexts(readiness('free'), usage);
    expect(billing.range).toBeNull();
    expect(billing.detail).toMatch(/not billed/);
  });

  it.each([
    ['past_due', /past due/],
    ['paused', /does not renew/],
    ['canceled', /Ends on 26 Dec 2026/],
    ['trialing', /renews every month/],
  ] as const)('%s says what happens to the billing period', (state, text) => {
    expect(periodTexts(readiness(state), usage).billing.detail).toMatch(text);
  });

  it('formats whole days in UTC and shows unreadable input as is', () => {
    expect(formatUtcDay('2026-12-31T23:59:59.000Z')).toBe('31 Dec 2026');
    expect(formatUtcDay('soon')).toBe('soon');
  });
});
