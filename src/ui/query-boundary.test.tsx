import { QueryClient, QueryClientProvider, useSuspenseQuery } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useLiveStore } from '../live/live-store';
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

  it('reads again by itself once the live feed has reconnected (the service is back)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const read = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValueOnce('up');
    useLiveStore.getState().feedStarted();
    useLiveStore.getState().connectionOpened();
    render(
      <QueryClientProvider client={client}>
        <QueryBoundary resetKey="k" pending={<p>Loading…</p>} renderError={() => <p>failed</p>}>
          <Value read={read} />
        </QueryBoundary>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('failed')).toBeTruthy();
    // Losing the connection again changes nothing; coming back reads again.
    act(() => useLiveStore.getState().connectionLost());
    expect(screen.getByText('failed')).toBeTruthy();
    act(() => useLiveStore.getState().connectionOpened());
    expect(await screen.findByText('up')).toBeTruthy();
    expect(read).toHaveBeenCalledTimes(2);
  });
});
