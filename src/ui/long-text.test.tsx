import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LONG_TEXT_CHARS, LongText, clipText } from './long-text';

describe('LongText', () => {
  it('shows a short value whole, without a button', () => {
    const { container } = render(<LongText text="<b>short</b>" />);
    expect(container.textContent).toBe('<b>short</b>');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('cuts a long value to its start and shows the whole on request', () => {
    const text = 'a'.repeat(LONG_TEXT_CHARS) + 'TAIL';
    const { container } = render(<LongText text={text} />);
    expect(container.textContent).not.toContain('TAIL');
    fireEvent.click(screen.getByRole('button', { name: 'Show all 2,004 characters' }));
    expect(container.textContent).toBe(text);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('never cuts inside a surrogate pair', () => {
    const text = 'x'.repeat(9) + '\u{1F600}' + 'y';
    expect(clipText(text, 10)).toBe('x'.repeat(9));
    expect(clipText(text, 11)).toBe('x'.repeat(9) + '\u{1F600}');
    expect(clipText('short', 10)).toBe('short');
  });
});
