import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import { PlanPage } from './plan-page';

const readSubscription = vi.fn<() => Promise<unknown>>();

// Only the subscription read matters here: the page must never draw a plan it did not read.
vi.mock('../../api/queries/account', () => ({
  usageQueries: {
    subscription: () => ({ queryKey: ['usage', 'subscription'], queryFn: readSubscription }),
  },
  accountQueries: {
    me: () => ({
      queryKey: ['account', 'me'],
      queryFn: () =>
        Promise.resolve({ account_id: 'a', email: 'a@b.c', name: null, organizations: [] }),
    }),
  },
}));

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <PlanPage />
    </QueryClientProvider>,
  );
}

describe('PlanPage', () => {
  afterEach(() => readSubscription.mockReset());

  it('shows a pending state while the read is under way, not a default plan', () => {
    readSubscription.mockReturnValue(new Promise(() => {}));
    renderPage();
    expect(screen.getByRole('status').textContent).toMatch(/Loading the plan/);
    expect(screen.queryByText('free')).toBeNull();
    expect(screen.queryByText(/none on this plan/)).toBeNull();
  });

  it('an unauthenticated read shows sign-in, never a free plan', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    readSubscription.mockRejectedValue(
      new ApiError({
        status: 401,
        message: 'authentication required',
        code: 'unauthorized',
        next: 'Sign in again, then repeat the request.',
        nextAction: { code: 'sign_in', target: 'auth' },
      }),
    );
    renderPage();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(/unauthorized/);
    expect(screen.queryByText('free')).toBeNull();
    expect(screen.queryByText(/none on this plan/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Create organization/ })).toBeNull();
  });

  it('a failed read shows the error with a retry, never a free plan', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    readSubscription.mockRejectedValue(new ApiError({ status: 0, message: 'unreachable' }));
    renderPage();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByText(/none on this plan/)).toBeNull();
  });
});
