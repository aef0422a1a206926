import { Modal } from '../../ui/modal';
import styles from './issues-page.module.css';

export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'j', does: 'Focus the next issue' },
  { keys: 'k', does: 'Focus the previous issue' },
  { keys: 'x', does: 'Select or unselect the focused issue' },
  { keys: 'r', does: 'Resolve the selection (or the focused issue)' },
  { keys: 'e', does: 'Archive the selection (or the focused issue)' },
  { keys: 'a', does: 'Assign the selection (or the focused issue)' },
  { keys: 'Enter', does: 'Open the focused issue' },
  { keys: '?', does: 'Show these shortcuts' },
];

/** The board's keyboard shortcuts (they never fire while typing in a field). */
export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Keyboard shortcuts"
      description="On the issues board, when no text field has the focus."
    >
      <dl className={styles.shortcuts}>
        {SHORTCUTS.map((s) => (
          <div key={s.keys} className={styles.shortcut}>
            <dt>
              <kbd className={styles.kbd}>{s.keys}</kbd>
            </dt>
            <dd>{s.does}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
