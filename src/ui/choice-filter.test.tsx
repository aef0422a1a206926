import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ChoiceFilter } from './choice-filter';

const labels = { high: 'High', low: 'Low' } as const;

describe('ChoiceFilter', () => {
  it('offers "any" first, then the options by label, and reports the choice', () => {
    const onChange = vi.fn();
    render(
      <ChoiceFilter
        label="Priority"
        anyLabel="Any priority"
        value={undefined}
        options={['high', 'low']}
        labels={labels}
        onChange={onChange}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Priority' });
    expect(select.hasAttribute('data-empty')).toBe(true);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Any priority',
      'High',
      'Low',
    ]);
    fireEvent.change(select, { target: { value: 'low' } });
    expect(onChange).toHaveBeenLastCalledWith('low');
  });

  it('reports "any" as undefined and marks a chosen value', () => {
    const onChange = vi.fn();
    render(
      <ChoiceFilter
        label="Priority"
        anyLabel="Any priority"
        value="high"
        options={['high', 'low']}
        labels={labels}
        onChange={onChange}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Priority' });
    expect(select.hasAttribute('data-empty')).toBe(false);
    fireEvent.change(select, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });
});
