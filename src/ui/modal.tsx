import { Dialog } from 'radix-ui';
import type { ReactNode, RefObject } from 'react';
import { Button } from './button';
import styles from './dialog.module.css';
import { CloseIcon } from './icons';
import { returnFocus, useOpener } from './return-focus';

/** A modal dialog (Radix Dialog): title, optional description, a close button, content. */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  wide = false,
  onEscapeKeyDown,
  onPointerDownOutside,
  returnFocusRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  wide?: boolean;
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  onPointerDownOutside?: (event: Event) => void;
  /** Where focus goes on close when the element that opened the dialog is gone. */
  returnFocusRef?: RefObject<HTMLElement | null>;
}) {
  const opener = useOpener(open);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={`${styles.content} ${wide ? styles.wide : ''}`}
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
          {...(onEscapeKeyDown ? { onEscapeKeyDown } : {})}
          {...(onPointerDownOutside ? { onPointerDownOutside } : {})}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus(opener, returnFocusRef);
          }}
        >
          <div className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            <Dialog.Close className={styles.close} aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          {description !== undefined && (
            <Dialog.Description className={styles.description}>{description}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The row of buttons at the bottom of a dialog, primary action last. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}

/** A form dialog's Cancel and submit buttons; the submit is disabled (and says so) while sending. */
export function SubmitActions({
  onCancel,
  pending,
  label,
  pendingLabel,
}: {
  onCancel: () => void;
  pending: boolean;
  label: string;
  pendingLabel: string;
}) {
  return (
    <DialogActions>
      <Button onClick={onCancel}>Cancel</Button>
      <Button type="submit" variant="primary" disabled={pending}>
        {pending ? pendingLabel : label}
      </Button>
    </DialogActions>
  );
}
