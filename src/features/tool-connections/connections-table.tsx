import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toolConnectionMutations, type ToolConnection } from '../../api/queries/tool-connections';
import { formatUtcDate, formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Sparkline } from '../../ui/sparkline';
import { WriteFailure } from '../../ui/write-failure';
import styles from './tool-connections.module.css';

const STATE_LABEL: Record<ToolConnection['state'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
};

/** The account's connections: what each covers, when it was used, and revoking it. */
export function ConnectionsTable({ connections }: { connections: readonly ToolConnection[] }) {
  const [revoking, setRevoking] = useState<ToolConnection | null>(null);
  return (
    <div className={styles.panel}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Projects</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Uses, last 7 days</th>
            <th scope="col">State</th>
            <th scope="col" className={styles.actionsHead}>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {connections.map((c) => (
            <ConnectionRow key={c.id} connection={c} onRevoke={() => setRevoking(c)} />
          ))}
        </tbody>
      </table>
      <RevokeDialog connection={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}

function ConnectionRow({
  connection: c,
  onRevoke,
}: {
  connection: ToolConnection;
  onRevoke: () => void;
}) {
  const uses = c.uses_by_day.map((d) => d.uses);
  const total = uses.reduce((sum, n) => sum + n, 0);
  return (
    <tr className={c.state === 'active' ? undefined : styles.inactive}>
      <th scope="row" className={styles.nameCell}>
        {c.name}
        <span className={styles.prefix}>{c.token_prefix}…</span>
        {!c.yours && (
          <span className={styles.createdBy}>
            Created by {c.created_by.name ?? c.created_by.email}
          </span>
        )}
      </th>
      <td className={styles.projectsCell}>
        {c.projects.map((p) => (
          <span key={p.id} className={styles.projectChip}>
            {p.name ?? 'A project you cannot read'}
          </span>
        ))}
      </td>
      <td className={styles.date}>{formatUtcDate(c.created_at)}</td>
      <td className={styles.date}>
        {c.last_used_at ? formatUtcDateTime(c.last_used_at) : 'Never'}
      </td>
      <td>
        <span className={styles.uses}>
          <Sparkline counts={uses} bucketSeconds={86_400} label={`${c.name}, uses per day`} />
          <span>{total.toLocaleString('en-US')}</span>
        </span>
      </td>
      <td>
        <span className={`${styles.state} ${styles[`state_${c.state}`] ?? ''}`}>
          {STATE_LABEL[c.state]}
        </span>
        {c.state === 'expired' && c.expires_at && (
          <span className={styles.stateDetail}>{formatUtcDate(c.expires_at)}</span>
        )}
        {c.state === 'active' && c.expires_at && (
          <span className={styles.stateDetail}>until {formatUtcDate(c.expires_at)}</span>
        )}
      </td>
      <td className={styles.actionsCell}>
        {c.state !== 'revoked' && (
          <Button size="sm" onClick={onRevoke} aria-label={`Revoke ${c.name}`}>
            Revoke
          </Button>
        )}
      </td>
    </tr>
  );
}

function RevokeDialog({
  connection,
  onClose,
}: {
  connection: ToolConnection | null;
  onClose: () => void;
}) {
  const revoke = useMutation(toolConnectionMutations.revoke());
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={connection !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Revoke “${connection?.name ?? ''}”?`}
      description="The tool’s next request is refused. This cannot be undone: to connect the tool again, create a new connection."
      confirmLabel="Revoke connection"
      pendingLabel="Revoking…"
      pending={revoke.isPending}
      onConfirm={() => {
        if (connection) revoke.mutate(connection.id, { onSuccess: close });
      }}
    >
      {revoke.isError && (
        <WriteFailure
          error={revoke.error}
          idempotent
          unknownOutcome="The connection may or may not have been revoked."
        />
      )}
    </ConfirmDialog>
  );
}
