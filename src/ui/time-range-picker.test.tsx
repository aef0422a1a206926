import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIME_RANGE } from '../lib/time-range';
import { TimeRangePicker } from './time-range-picker';

describe('TimeRangePicker', () => {
  it('offers the presets as options and reports the chosen one', () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={DEFAULT_TIME_RANGE} onChange={onChange} />);
    fireEvent.click(screen.getByRole('button', { name: 'Time range: Last 24 hours' }));
    const selected = screen.getByRole('option', { name: /Last 24 hours/ });
    expect(selected.getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('option', { name: /Last 7 days/ }));
    expect(onChange).toHaveBeenCalledWith({ kind: 'relative', amount: 7, unit: 'd' });
  });

  it('refuses a custom range whose end is not after its start', () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={DEFAULT_TIME_RANGE} onChange={onChange} />);
    fireEvent.click(screen.getByRole('button', { name: /Time range/ }));
    fireEvent.change(screen.getByLabelText('From (UTC)'), {
      target: { value: '2025-05-03T10:00' },
    });
    fireEvent.change(screen.getByLabelText('To (UTC)'), { target: { value: '2025-05-03T09:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply range' }));
    expect(screen.getByRole('alert').textContent).toBe('The end must be later than the start.');
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('To (UTC)'), { target: { value: '2025-05-03T12:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply range' }));
    expect(onChange).toHaveBeenCalledWith({
      kind: 'absolute',
      since: '2025-05-03T10:00:00.000Z',
      until: '2025-05-03T12:00:00.000Z',
    });
  });
});
