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
});
