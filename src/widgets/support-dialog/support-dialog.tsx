import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { InvestigationBundle } from '../../api/queries/investigations';
import {
  supportMutations,
  type SupportSeverity,
  type SupportTicket,
} from '../../api/queries/support';
import { nextSubmission, type IdempotentSubmission } from '../../lib/idempotency-key';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { CopyButton } from '../../ui/copy-button';
import field from '../../ui/labelled-field.module.css';
import textField from '../../ui/text-field.module.css';
import { DialogActions, Modal, SubmitActions } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { WriteFailure } from '../../ui/write-failure';
import styles from './support-dialog.module.css';

const SEVERITIES: { value: SupportSeverity; label: string }[] = [
  { value: 'low', label: 'Low' },
  { value: 'normal', label: 'Normal' },
  { value: 'high', label: 'High' },
  { value: 'urgent', label: 'Urgent' },
];

/**
 * "Contact support": opens a ticket and, when opened from an Investigate panel, attaches that
 * bundle exactly as it was read. Both writes carry an Idempotency-Key, so "Send" after a
 * failure never opens a second ticket or attaches twice.
 */
export function SupportDialog({
  open,
  onOpenChange,
  bundle,
  returnFocusRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  bundle?: InvestigationBundle | undefined;
  /** Where focus goes on close when the opener is gone (a menu item). */
  returnFocusRef?: RefObject<HTMLElement | null>;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      {...(returnFocusRef ? { returnFocusRef } : {})}
      wide
      title="Contact support"
      description="The ticket is stored for the operator of this service; no e-mail is sent."
    >
      {open && <SupportForm bundle={bundle} onClose={() => onOpenChange(false)} />}
    </Modal>
  );
}

function SupportForm({
  bundle,
  onClose,
}: {
  bundle: InvestigationBundle | undefined;
  onClose: () => void;
}) {
  const id = useId();
  const create = useMutation(supportMutations.createTicket());
  const attach = useMutation(supportMutations.attachBundle());
  const ticketSubmission = useRef<IdempotentSubmission | null>(null);
  const attachSubmission = useRef<IdempotentSubmission | null>(null);
  const [subject, setSubject] = useState(
    bundle ? `Question about ${bundle.subject.kind} ${bundle.subject.id}`.slice(0, 200) : '',
  );
  const [message, setMessage] = useState('');
  const [severity, setSeverity] = useState<SupportSeverity>('normal');
  const [ticket, setTicket] = useState<SupportTicket | null>(null);

  const attachTo = (t: SupportTicket, b: InvestigationBundle) => {
    attachSubmission.current = nextSubmission(attachSubmission.current, {
      ticket: t.ticket_id,
      subject: b.subject,
    });
    attach.mutate({
      ticketId: t.ticket_id,
      bundle: b,
      idempotencyKey: attachSubmission.current.key,
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      subject: subject.trim(),
      message: message.trim(),
      severity,
      projectId: bundle?.subject.project_id ?? undefined,
    };
    ticketSubmission.current = nextSubmission(ticketSubmission.current, body);
    create.mutate(
      { ...body, idempotencyKey: ticketSubmission.current.key },
      {
        onSuccess: (created) => {
          setTicket(created);
          if (bundle) attachTo(created, bundle);
        },
      },
    );
  };

  if (ticket) {
    return (
      <div className={styles.form}>
        <Callout tone="success" title="Ticket opened" role="status">
          <p className={styles.ticketId}>
            <span data-testid="support-ticket-id">{ticket.ticket_id}</span>
            <CopyButton value={ticket.ticket_id} label="Copy ticket id" />
          </p>
          <p>Quote this id when you follow up. It is stored for the operator; no e-mail is sent.</p>
        </Callout>
        {bundle &&
          (attach.isSuccess ? (
            <Callout tone="success" title="Evidence attached" role="status">
              The {bundle.subject.kind} bundle ({attach.data.bytes.toLocaleString('en-US')} bytes)
              is attached to the ticket.
            </Callout>
          ) : attach.isError ? (
            <>
              <WriteFailure
                error={attach.error}
                idempotent
                unknownOutcome="The evidence may or may not have been attached."
              />
              <DialogActions>
                <Button variant="primary" onClick={() => attachTo(ticket, bundle)}>
                  Attach again
                </Button>
              </DialogActions>
            </>
          ) : (
            <p className={styles.attached}>Attaching the evidence…</p>
          ))}
        <DialogActions>
          <Button onClick={onClose}>Close</Button>
        </DialogActions>
      </div>
    );
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Subject"
        maxLength={200}
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
        autoFocus
      />
      <div className={textField.field}>
        <label className={textField.label} htmlFor={`${id}-message`}>
          Message
        </label>
        <textarea
          id={`${id}-message`}
          className={styles.textarea}
          maxLength={10_000}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          placeholder="What happened, and what did you expect?"
        />
      </div>
      {/* Labels as the Subject field above has them. */}
      <div className={field.field}>
        <label className={textField.label} htmlFor={`${id}-severity`}>
          Severity
        </label>
        <select
          id={`${id}-severity`}
          className={field.select}
          value={severity}
          onChange={(e) =>
            setSeverity(SEVERITIES.find((s) => s.value === e.target.value)?.value ?? 'normal')
          }
        >
          {SEVERITIES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      {bundle && (
        <p className={styles.attached}>
          The {bundle.subject.kind} evidence bundle shown in the panel will be attached as it was
          read (application data included).
        </p>
      )}
      {create.isError && (
        <WriteFailure
          error={create.error}
          idempotent
          unknownOutcome="The ticket may or may not have been opened."
        />
      )}
      <SubmitActions
        onCancel={onClose}
        pending={create.isPending}
        label="Send to support"
        pendingLabel="Sending…"
      />
    </form>
  );
}
