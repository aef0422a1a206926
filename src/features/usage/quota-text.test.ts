import { describe, expect, it } from 'vitest';
import type { AccountUsage } from '../../api/queries/account';
import { quotaText } from './quota-text';

const usage = (o: Partial<AccountUsage>) =>
  ({
    state: 'ok',
    limit: null,
    percent_used: 12,
    warning_threshold: 0.8,
    reset_at: '2026-12-01T00:00:00.000Z',
    usage: { events: 1_200, bytes: 50_000, projects: 2 },
    ...o,
  }) as AccountUsage;

describe('quotaText', () => {
  it('words each state from the typed fields', () => {
    expect(quotaText(usage({}))).toMatchObject({
      tone: 'success',
      detail: expect.stringContaining('12% of the fullest allowance'),
    });
    expect(quotaText(usage({ state: 'warning', limit: 'bytes', percent_used: 85 }))).toEqual({
      tone: 'warning',
      title: 'Bytes: 85% of an allowance used',
      detail:
        'Past the 80% warning threshold on log bytes and metric bytes. Telemetry is still accepted; at 100% it is refused until 1 Dec 2026, 00:00:00 UTC.',
    });
    expect(
      quotaText(usage({ state: 'blocked', limit: 'events', percent_used: 100 })),
    ).toMatchObject({
      tone: 'danger',
      title: 'Events allowance used up',
      detail: expect.stringContaining('issue events and trace spans is refused (429'),
    });
  });

  it('says a use under 1% is under 1%, never a silent 0%', () => {
    expect(quotaText(usage({ percent_used: 0 })).detail).toMatch(
      /^Under 1% of the fullest allowance is used this period/,
    );
    const nothing = usage({ percent_used: 0, usage: { events: 0, bytes: 0, projects: 1 } });
    expect(quotaText(nothing).detail).toMatch(/^0% of the fullest allowance/);
  });
});
