import type { SubscriptionReadiness } from '../../api/queries/account';
import { Button } from '../../ui/button';
import { DialogActions, Modal } from '../../ui/modal';
import styles from './plan-page.module.css';
import { setPlanCommand } from './plan-text';

/**
 * What "Choose a plan" and "Resume subscription" lead to in this deployment: there is no
 * pricing page or checkout, so the dialog shows the service's `next` and says plainly that an
 * operator changes the plan on the server.
 */
export function PlanChangeDialog({
  open,
  onOpenChange,
  title,
  readiness,
  email,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  readiness: SubscriptionReadiness;
  email: string;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description="This deployment has no pricing page, billing system or checkout."
      wide
    >
      <div className={styles.dialogText}>
        <blockquote className={styles.quote}>
          <span className={styles.nextLabel}>From the service: </span>
          {readiness.next}
        </blockquote>
        <p>
          Plans and subscription states are changed by an operator of this deployment, on the
          server, with:
        </p>
        <code className={styles.command}>
          {setPlanCommand(email, readiness.next_action.code, readiness.tier)}
        </code>
        <p className={styles.muted}>
          Ask whoever runs this Lookout service to run it (the tiers are <code>free</code>,{' '}
          <code>pro</code> and <code>scale</code>; <code>--state</code> and <code>--interval</code>{' '}
          are optional). Then reload this page: nothing changes until then, and nothing is charged.
        </p>
      </div>
      <DialogActions>
        <Button variant="primary" onClick={() => onOpenChange(false)}>
          Done
        </Button>
      </DialogActions>
    </Modal>
  );
}
