import { QueryClient, QueryClientProvider, useSuspenseQuery } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { QueryBoundary } from './query-boundary';

function Value({ read }: { read: () => Promise<string> }) {
  const { data } = useSuspenseQuery({ queryKey: ['value'], queryFn: read });
  return <p>{data}</p>;
}

describe('QueryBoundary', () => {
  it('shows pending, then the error, and reads again on retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const read = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValueOnce('up');
    render(
      <QueryClientProvider client={client}>
        <QueryBoundary
          resetKey="k"
          pending={<p>Loading…</p>}
          renderError={(error, retry) => (
            <button type="button" onClick={retry}>
              {error instanceof Error ? error.message : '?'}: try again
            </button>
          )}
        >
          <Value read={read} />
        </QueryBoundary>
      </QueryClientProvider>,
    );
    expect(screen.getByText('Loading…')).toBeTruthy();
    const button = await screen.findByRole('button', { name: 'down: try again' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(await screen.findByText('up')).toBeTruthy();
    expect(read).toHaveBeenCalledTimes(2);
  });
});
