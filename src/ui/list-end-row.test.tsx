import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ListEndRow } from './list-end-row';

const noun = { one: 'log', many: 'logs' };
const state = { hasNextPage: false, isFetchingNextPage: false, error: null, fetchNextPage() {} };

describe('ListEndRow', () => {
  it('says more is loading while there is a next page', () => {
    render(<ListEndRow next={{ ...state, hasNextPage: true }} loaded={50} noun={noun} />);
    expect(screen.getByText('Loading more logs…')).toBeTruthy();
  });

  it('says everything is loaded, with the count', () => {
    const { rerender } = render(<ListEndRow next={state} loaded={1200} noun={noun} />);
    expect(screen.getByText('All 1,200 logs in this range and scope.')).toBeTruthy();
    rerender(<ListEndRow next={state} loaded={1} noun={noun} />);
    expect(screen.getByText('The only log in this range and scope.')).toBeTruthy();
  });

  it('offers to try again when the next page failed', () => {
    const fetchNextPage = vi.fn();
    render(
      <ListEndRow
        next={{ ...state, hasNextPage: true, error: new Error('x'), fetchNextPage }}
        loaded={50}
        noun={noun}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('The next page could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(fetchNextPage).toHaveBeenCalledOnce();
  });
});
