import type { StateStore } from '../core/store/store';

/** Tickets listed at most, newest first. */
export const TICKET_LIST_LIMIT = 100;

/**
 * `npm run account -- tickets`: the support tickets stored for the operator (the service sends
 * no e-mail), one block per ticket, newest first. Attached bundles stay in the database
 * (`support_ticket_contexts`); only their count is shown.
 */
export async function listTickets(store: StateStore, limit = TICKET_LIST_LIMIT): Promise<string> {
  const tickets = await store.support.list(limit);
  if (tickets.length === 0) return 'No support tickets.\n';
  return tickets
    .map(
      (t) =>
        `${new Date(t.createdAt).toISOString()}  ${t.id}  ${t.severity}  ${t.status}  ${t.email}` +
        `${t.projectId ? `  project ${t.projectId}` : ''}  ${t.contextCount} attachment(s)\n` +
        `  ${t.subject}\n` +
        t.message
          .split('\n')
          .map((line) => `    ${line}\n`)
          .join(''),
    )
    .join('\n');
}
