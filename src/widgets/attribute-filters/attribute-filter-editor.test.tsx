import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AttributeFilter, FilterDraft } from '../../lib/attribute-filter';
import { AttributeFilterEditor } from './attribute-filter-editor';

const catalog = { since: '24h' };
const numberDraft: FilterDraft = {
  path: '/http/status',
  type: 'number',
  operator: 'gte',
  valueText: '',
  caseSensitive: false,
};

function setup(others: AttributeFilter[] = [], initial: FilterDraft = numberDraft) {
  const onApply = vi.fn();
  render(
    <AttributeFilterEditor
      catalog={catalog}
      initial={initial}
      others={others}
      onApply={onApply}
      onCancel={() => {}}
    />,
  );
  return onApply;
}

describe('AttributeFilterEditor', () => {
  it('offers the operators of the type', () => {
    setup();
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['=', '≠', '>', '≥', '<', '≤', 'exists']);
  });

  it('explains an invalid value and sends nothing', () => {
    const onApply = setup();
    fireEvent.change(screen.getByLabelText('Value'), { target: { value: '5OO' } });
    expect(
      screen.getByText('“5OO” is not a number. Enter digits, such as 500 or 0.25.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Update filter' }));
    expect(onApply).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Value').getAttribute('aria-invalid')).toBe('true');
  });

  it('applies a valid filter', () => {
    const onApply = setup();
    fireEvent.change(screen.getByLabelText('Value'), { target: { value: '500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update filter' }));
    expect(onApply).toHaveBeenCalledWith({
      path: '/http/status',
      type: 'number',
      operator: 'gte',
      value: 500,
    });
  });

  it('takes no value for exists', () => {
    const onApply = setup();
    fireEvent.change(screen.getByLabelText('Operator'), { target: { value: 'exists' } });
    expect(screen.queryByLabelText('Value')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Update filter' }));
    expect(onApply).toHaveBeenCalledWith({
      path: '/http/status',
      type: 'number',
      operator: 'exists',
    });
  });

  it('says when the whole set would be too large', () => {
    const long: AttributeFilter = {
      path: '/a',
      type: 'string',
      operator: 'eq',
      value: 'x'.repeat(1000),
    };
    const onApply = setup([long, long, long], {
      path: '/b',
      type: 'string',
      operator: 'eq',
      valueText: 'y'.repeat(1000),
      caseSensitive: false,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Update filter' }));
    expect(onApply).not.toHaveBeenCalled();
    expect(screen.getByText(/at most 4,096 can be sent/)).toBeTruthy();
  });

  it('offers case matching for text only', () => {
    setup([], { ...numberDraft, type: 'string', operator: 'eq' });
    expect(screen.getByLabelText('Match case')).toBeTruthy();
  });
});
