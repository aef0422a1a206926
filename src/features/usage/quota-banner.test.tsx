import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import type { AccountUsage } from '../../api/queries/account';
import { QuotaBanner } from './quota-banner';

const usage = {
  state: 'ok',
  limit: null,
  percent_used: 40,
  warning_threshold: 0.8,
  usage: { events: 1_200, bytes: 50_000, projects: 2 },
  reset_at: '2026-12-01T00:00:00.000Z',
  next: 'Usage is below 80% of every allowance; keep sending telemetry.',
  next_action: {
    code: 'continue_sending_telemetry',
    target: 'telemetry_ingest',
    state: 'ok',
    limit: null,
    reset_at: '2026-12-01T00:00:00.000Z',
  },
} as AccountUsage;

describe('QuotaBanner', () => {
  it('labels a snapshot that could not be re-read as stale, with when it was read', () => {
    render(
      <QuotaBanner
        usage={usage}
        staleSince={Date.parse('2026-11-22T10:15:00.000Z')}
        staleError={new ApiError({ status: 503, message: 'Service unavailable' })}
      />,
    );
    expect(
      screen.getByText(
        /Stale: read at 10:15:00 UTC; the latest re-read failed \(Service unavailable\)/,
      ),
    ).toBeTruthy();
    expect(screen.getByText(usage.next)).toBeTruthy();
  });

  it('says nothing of staleness for a fresh snapshot', () => {
    render(<QuotaBanner usage={usage} staleSince={null} staleError={null} />);
    expect(screen.queryByText(/Stale/)).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('40% of the fullest allowance');
  });
});
