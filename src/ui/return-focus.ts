import { useEffect, useState, type RefObject } from 'react';

/**
 * Where focus goes when an overlay closes: back to the element that opened it, or — when that
 * element is gone or is a menu item (a menu item that opened a dialog) — to `fallback`. Radix
 * returns focus only to its own `Trigger`, and our dialogs are opened by state.
 */
export function returnFocus(opener: Element | null, fallback?: RefObject<HTMLElement | null>) {
  // A menu item counts as gone even while still in the page: its menu may be in its closing
  // animation when the dialog closes, and focus on it falls to the body once it is removed.
  const usable =
    opener instanceof HTMLElement &&
    opener.isConnected &&
    opener !== document.body &&
    opener.closest('[role="menu"]') === null;
  const target = usable ? opener : fallback?.current;
  target?.focus();
}

/**
 * For a panel that takes focus when it opens (and again for each `key`): when it closes with
 * focus inside it, focus goes back to the element that had it before, so the keyboard user
 * carries on from the row they opened.
 */
export function useReturnFocusOnClose(key: unknown) {
  useEffect(() => {
    const opener = document.activeElement;
    return () => {
      // Unmounting removed the focused element (focus fell to the body): put it back.
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost) returnFocus(opener);
    };
  }, [key]);
}

/**
 * The element that had focus when `open` turned true, kept after it turns false so the closing
 * dialog can give focus back. Read while rendering: by the time effects run, a field with
 * `autoFocus` inside the dialog already has focus.
 */
export function useOpener(open: boolean): Element | null {
  const [state, setState] = useState(() => ({
    open,
    opener: open ? document.activeElement : null,
  }));
  if (state.open !== open) {
    setState({ open, opener: open ? document.activeElement : state.opener });
  }
  return state.opener;
}
