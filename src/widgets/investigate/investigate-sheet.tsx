import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { CloseIcon } from '../../ui/icons';
import styles from './investigate-sheet.module.css';

/** The frame of the Investigate panel: a modal sheet on the right (Radix Dialog). */
export function InvestigateSheet({
  open,
  onOpenChange,
  title,
  description,
  toolbar,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** Choices that change what is read (which occurrence), above the evidence. */
  toolbar?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.sheet}>
          <div className={styles.header}>
            <div>
              <Dialog.Title className={styles.title}>{title}</Dialog.Title>
              <Dialog.Description className={styles.description}>{description}</Dialog.Description>
            </div>
            <Dialog.Close className={styles.close} aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          {toolbar && <div className={styles.toolbar}>{toolbar}</div>}
          <div className={styles.body}>{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
