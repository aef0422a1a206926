import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal';

/** A button that opens a modal holding an autofocused field (as the form dialogs do). */
function Opener({ removeOpener = false }: { removeOpener?: boolean }) {
  const [open, setOpen] = useState(false);
  const fallback = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button ref={fallback}>Fallback</button>
      {!(removeOpener && open) && <button onClick={() => setOpen(true)}>Open</button>}
      <Modal open={open} onOpenChange={setOpen} title="A dialog" returnFocusRef={fallback}>
        <input aria-label="Name" autoFocus />
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('gives focus back to the element that opened it', async () => {
    render(<Opener />);
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    fireEvent.click(open);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Name')));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(open));
  });

  it('gives focus to the fallback when the opener is gone (a menu item)', async () => {
    render(<Opener removeOpener />);
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    act(() => open.click());
    await waitFor(() => expect(screen.getByRole('dialog')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Fallback' })),
    );
  });
});
