import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FILTER_DEBOUNCE_MS } from '../../ui/filter-input';
import { MinDurationFilter } from './min-duration-filter';

describe('MinDurationFilter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const setup = (value: number | undefined = undefined) => {
    const onCommit = vi.fn();
    const onProblem = vi.fn();
    const view = render(
      <MinDurationFilter value={value} onCommit={onCommit} onProblem={onProblem} errorId="err" />,
    );
    const box = screen.getByRole('textbox', { name: 'Min duration' });
    return { onCommit, onProblem, box, view };
  };

  it('applies whole milliseconds once typing pauses, or at once on Enter', () => {
    const { onCommit, box } = setup();
    fireEvent.change(box, { target: { value: '250' } });
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS - 1));
    expect(onCommit).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onCommit).toHaveBeenCalledExactlyOnceWith(250);
    fireEvent.change(box, { target: { value: '300' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onCommit).toHaveBeenLastCalledWith(300);
  });

  it('explains a value the service would refuse and never sends it', () => {
    const { onCommit, onProblem, box } = setup(100);
    fireEvent.change(box, { target: { value: '-5' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS * 2));
    expect(onCommit).not.toHaveBeenCalled();
    expect(onProblem).toHaveBeenLastCalledWith(expect.stringMatching(/cannot be negative/));
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe('err');
    fireEvent.change(box, { target: { value: '1.5' } });
    expect(onProblem).toHaveBeenLastCalledWith(expect.stringMatching(/whole milliseconds/));
    fireEvent.change(box, { target: { value: '' } });
    expect(onProblem).toHaveBeenLastCalledWith(null);
    act(() => vi.advanceTimersByTime(FILTER_DEBOUNCE_MS));
    expect(onCommit).toHaveBeenCalledExactlyOnceWith(undefined);
  });

  it('shows a value that came from the URL, even one to fix', () => {
    const { box, onProblem, view } = setup(1.5);
    expect(box).toHaveProperty('value', '1.5');
    expect(onProblem).toHaveBeenLastCalledWith(expect.stringMatching(/whole milliseconds/));
    view.rerender(
      <MinDurationFilter value={undefined} onCommit={() => {}} onProblem={() => {}} errorId="e" />,
    );
    expect(box).toHaveProperty('value', '');
  });
});
