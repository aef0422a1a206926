import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { accountQueries } from '../../api/queries/account';
import {
  alertMutations,
  alertQueries,
  type CreatedWebhook,
  type Webhook,
} from '../../api/queries/alerts';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { PlusIcon } from '../../ui/icons';
import { PendingState } from '../../ui/pending-state';
import { useDocumentTitle } from '../../ui/use-document-title';
import { WriteFailure } from '../../ui/write-failure';
import { AlertsFrame } from './alerts-frame';
import page from './alerts-page.module.css';
import tables from './alerts-tables.module.css';
import { DeliveryLog } from './delivery-log';
import { LabelledSelect } from './labelled-select';
import { NewWebhookDialog } from './new-webhook-dialog';
import { webhookPermission, type ChangePermission } from './rule-permission';
import { WebhookSecretDialog } from './webhook-secret-dialog';
import styles from './webhooks.module.css';

const route = getRouteApi('/_app/alerts/webhooks');

/**
 * `/alerts/webhooks`: the organization's webhooks. Add one (its signing secret shown once),
 * send a test, read each one's delivery log, delete it.
 */
export function WebhooksPage() {
  useDocumentTitle('Webhooks · Alerts');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { data: account } = useSuspenseQuery(accountQueries.me());
  const organizations = account.organizations;
  const organization = organizations.find((o) => o.id === search.organization) ?? organizations[0];
  const permission = webhookPermission(organization?.role);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  return (
    <AlertsFrame
      title="Alerts"
      subtitle="Webhooks receive each alert's firing and resolution as a signed JSON POST. Lookout sends no email: no mail server is assumed."
      actions={
        organization !== undefined && (
          <Button
            variant="primary"
            disabled={!permission.allowed}
            title={permission.allowed ? undefined : permission.reason}
            onClick={() => setAdding(true)}
          >
            <PlusIcon />
            Add webhook
          </Button>
        )
      }
    >
      {organizations.length > 1 && organization !== undefined && (
        <LabelledSelect
          label="Organization"
          value={organization.id}
          options={organizations.map((o) => ({ value: o.id, label: o.name }))}
          onChange={(id) =>
            void navigate({ search: (prev) => ({ ...prev, organization: id, webhook: undefined }) })
          }
        />
      )}
      {!permission.allowed && organization !== undefined && (
        <p className={page.note} role="status">
          {permission.reason}
        </p>
      )}
      {organization === undefined ? (
        <EmptyState title="No organization">
          Webhooks belong to an organization. Create one from the Plan page first.
        </EmptyState>
      ) : (
        <WebhookList
          organizationId={organization.id}
          openId={search.webhook}
          permission={permission}
          onOpen={(id) => void navigate({ search: (prev) => ({ ...prev, webhook: id }) })}
        />
      )}
      {organization !== undefined && (
        <NewWebhookDialog
          open={adding}
          onOpenChange={setAdding}
          organizationId={organization.id}
          onCreated={(webhook) => {
            setAdding(false);
            setCreated(webhook);
            void navigate({ search: (prev) => ({ ...prev, webhook: webhook.id }) });
          }}
        />
      )}
      <WebhookSecretDialog webhook={created} onClose={() => setCreated(null)} />
    </AlertsFrame>
  );
}

function WebhookList({
  organizationId,
  openId,
  permission,
  onOpen,
}: {
  organizationId: string;
  openId: string | undefined;
  permission: ChangePermission;
  onOpen: (id: string | undefined) => void;
}) {
  const query = useQuery(alertQueries.webhooks(organizationId));
  if (query.isPending) return <PendingState label="Loading webhooks…" />;
  if (query.isError) return <ErrorState error={query.error} reset={() => void query.refetch()} />;
  const open = query.data.find((w) => w.id === openId);
  if (query.data.length === 0) {
    return (
      <div className={tables.panel}>
        <EmptyState title="No webhooks yet">
          Add a webhook (the button above) to send alerts to a chat, paging or ticket system. Each
          request is signed with a secret shown once, and retried with backoff until it is answered
          with 2xx.
        </EmptyState>
      </div>
    );
  }
  return (
    <>
      <div className={tables.panel}>
        <table className={tables.table}>
          <thead>
            <tr>
              <th scope="col">Webhook</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((w) => (
              <WebhookRow
                key={w.id}
                webhook={w}
                open={w.id === openId}
                permission={permission}
                onOpen={() => onOpen(w.id === openId ? undefined : w.id)}
                onDeleted={() => {
                  if (w.id === openId) onOpen(undefined);
                }}
              />
            ))}
          </tbody>
        </table>
      </div>
      {open !== undefined && (
        <section className={page.section} aria-labelledby="delivery-log-title">
          <h2 id="delivery-log-title" className={page.sectionTitle}>
            Deliveries to {open.name}
          </h2>
          <DeliveryLog webhookId={open.id} name={open.name} />
        </section>
      )}
    </>
  );
}

function WebhookRow({
  webhook,
  open,
  permission,
  onOpen,
  onDeleted,
}: {
  webhook: Webhook;
  open: boolean;
  permission: ChangePermission;
  onOpen: () => void;
  onDeleted: () => void;
}) {
  const test = useMutation(alertMutations.testWebhook());
  const remove = useMutation(alertMutations.deleteWebhook());
  const [confirming, setConfirming] = useState(false);
  const reason = permission.allowed ? undefined : permission.reason;
  return (
    <tr>
      <td className={tables.wrapCell}>
        <span className={tables.nameLink}>{webhook.name}</span>
        <span className={styles.url}>{webhook.url}</span>
        {test.isSuccess && (
          <span className={tables.sub} role="status">
            Test delivery queued; its attempts appear in the delivery log.
          </span>
        )}
        {test.isError && <WriteFailure error={test.error} idempotent={false} />}
      </td>
      <td>
        <time dateTime={webhook.created_at}>{formatUtcDateTime(webhook.created_at)}</time>
      </td>
      <td>
        <div className={styles.rowActions}>
          <Button size="sm" aria-expanded={open} onClick={onOpen}>
            {open ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button
            size="sm"
            disabled={!permission.allowed || test.isPending}
            title={reason}
            onClick={() =>
              test.mutate(webhook.id, {
                onSuccess: () => {
                  if (!open) onOpen();
                },
              })
            }
          >
            {test.isPending ? 'Sending…' : 'Send test'}
          </Button>
          <Button
            size="sm"
            variant="danger"
            disabled={!permission.allowed}
            title={reason}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
        </div>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Delete the webhook “${webhook.name}”?`}
          description="Rules stop sending to it, and its delivery log is deleted. Rules that notified only this webhook keep recording incidents."
          confirmLabel="Delete webhook"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(webhook.id, {
              onSuccess: () => {
                setConfirming(false);
                onDeleted();
              },
            })
          }
        >
          {remove.isError && <WriteFailure error={remove.error} idempotent />}
        </ConfirmDialog>
      </td>
    </tr>
  );
}
