import { AlertDialog } from 'radix-ui';
import type { ReactNode, RefObject } from 'react';
import { buttonClass } from './button';
import styles from './dialog.module.css';
import { returnFocus, useOpener } from './return-focus';

/**
 * A confirmation (Radix AlertDialog) for actions that cannot be undone. The confirm button
 * does not close the dialog by itself: the caller closes it when the action is done.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  cancelLabel = 'Cancel',
  confirmLabel,
  pendingLabel,
  pending = false,
  onConfirm,
  returnFocusRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  children?: ReactNode;
  cancelLabel?: string;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
  /** Where focus goes on close when the element that opened the dialog is gone. */
  returnFocusRef?: RefObject<HTMLElement | null>;
}) {
  const opener = useOpener(open);
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content
          className={styles.content}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus(opener, returnFocusRef);
          }}
        >
          <AlertDialog.Title className={styles.title}>{title}</AlertDialog.Title>
          <AlertDialog.Description className={styles.description}>
            {description}
          </AlertDialog.Description>
          {children}
          <div className={styles.actions}>
            <AlertDialog.Cancel className={buttonClass('secondary')} disabled={pending}>
              {cancelLabel}
            </AlertDialog.Cancel>
            <button
              type="button"
              className={buttonClass('danger')}
              disabled={pending}
              aria-busy={pending || undefined}
              onClick={onConfirm}
            >
              {pending && pendingLabel ? pendingLabel : confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
