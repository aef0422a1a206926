import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import type { AlertPreview, PreviewInput } from '../../api/queries/alerts';
import { RulePreview } from './rule-preview';

const readPreview = vi.fn<() => Promise<AlertPreview>>();

vi.mock('../../api/queries/alerts', () => ({
  alertQueries: {
    preview: (input: PreviewInput) => ({
      queryKey: ['alerts', 'preview', input],
      queryFn: readPreview,
      retry: false,
    }),
  },
}));

const input: PreviewInput = {
  project_id: '00000000-0000-4000-8000-000000000001',
  kind: 'log',
  condition: { query: { severity: 'error' }, op: 'above', threshold: 3, window_minutes: 15 },
};

function renderPreview(props: Partial<Parameters<typeof RulePreview>[0]> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <RulePreview input={input} problem={null} unit="logs" {...props} />
    </QueryClientProvider>,
  );
}

describe('RulePreview', () => {
  afterEach(() => readPreview.mockReset());

  it('says which field it needs instead of drawing an empty chart', () => {
    renderPreview({
      input: null,
      problem: { field: 'metric', message: 'Choose the metric to watch.' },
    });
    expect(
      screen.getByText(/once the rule can be read: Choose the metric to watch\./),
    ).toBeTruthy();
    expect(readPreview).not.toHaveBeenCalled();
  });

  it('shows where the rule would have fired, in words beside the chart', async () => {
    readPreview.mockResolvedValue({
      points: [
        { t: '2026-11-26T10:00:00Z', value: 1 },
        { t: '2026-11-26T10:15:00Z', value: 5 },
      ],
      threshold: 3,
      op: 'above',
      would_fire: [{ start: '2026-11-26T10:15:00Z', end: '2026-11-26T10:30:00Z' }],
      deployments: [
        { release: 'api@2.0.0', deployed_at: '2026-11-26T10:05:00Z', environment: 'production' },
      ],
      interval_minutes: 15,
    });
    renderPreview();
    expect(await screen.findByText(/It would have fired once over the last 24 hours/)).toBeTruthy();
    expect(screen.getByText(/Threshold above 3/)).toBeTruthy();
    expect(screen.getByText(/Deployments:/).textContent).toMatch(/api@2\.0\.0 → production/);
  });

  it('shows a refused preview with the service’s words', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    readPreview.mockRejectedValue(
      new ApiError({
        status: 422,
        message: 'condition.query.severity must be one of info, warning, error, critical',
        code: 'validation_failed',
        next: 'Send a log condition as docs/alerts.md describes it.',
      }),
    );
    renderPreview();
    expect((await screen.findByRole('alert')).textContent).toMatch(/condition\.query\.severity/);
  });
});
