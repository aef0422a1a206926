import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FILTER_DEBOUNCE_MS, FilterInput } from './filter-input';

describe('FilterInput', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('commits once typing pauses, blank as undefined', () => {
    const onCommit = vi.fn();
    render(<FilterInput label="Service" value={undefined} onCommit={onCommit} />);
    const box = screen.getByRole('searchbox', { name: 'Service' });
    fireEvent.change(box, { target: { value: 'check' } });
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS - 1));
    fireEvent.change(box, { target: { value: 'checkout ' } });
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS - 1));
    expect(onCommit).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('checkout ');
  });

  it('trims when asked, and commits at once on Enter', () => {
    const onCommit = vi.fn();
    render(<FilterInput label="Release" value="a" onCommit={onCommit} trim />);
    const box = screen.getByRole('searchbox', { name: 'Release' });
    fireEvent.change(box, { target: { value: '  b  ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onCommit).toHaveBeenCalledExactlyOnceWith('b');
    fireEvent.change(box, { target: { value: '   ' } });
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS));
    expect(onCommit).toHaveBeenLastCalledWith(undefined);
  });

  it('shows a value that changed from elsewhere', () => {
    const { rerender } = render(<FilterInput label="Service" value="a" onCommit={() => {}} />);
    rerender(<FilterInput label="Service" value={undefined} onCommit={() => {}} />);
    expect(screen.getByRole('searchbox', { name: 'Service' })).toHaveProperty('value', '');
  });
});
