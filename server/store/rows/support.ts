import type {
  SupportContextRecord,
  SupportSeverity,
  SupportTicketRecord,
  SupportTicketListing,
} from '../../core/store/state/support';
import { raw, sql, type SqlFragment } from './sql';

export type TicketDbRow = {
  id: string;
  account_id: string;
  project_id: string | null;
  subject: string;
  message: string;
  severity: SupportSeverity;
  status: 'open';
  created_at: number;
};

export const TICKET_COLUMNS =
  'id, account_id, project_id, subject, message, severity, status, created_at';

export const toTicket = (r: TicketDbRow): SupportTicketRecord => ({
  id: r.id,
  accountId: r.account_id,
  projectId: r.project_id,
  subject: r.subject,
  message: r.message,
  severity: r.severity,
  status: r.status,
  createdAt: r.created_at,
});

export const insertTicket = (row: SupportTicketRecord): SqlFragment =>
  sql`INSERT INTO support_tickets (${raw(TICKET_COLUMNS)})
    VALUES (${row.id}, ${row.accountId}, ${row.projectId}, ${row.subject}, ${row.message},
      ${row.severity}, ${row.status}, ${row.createdAt})`;

export const insertContext = (row: SupportContextRecord): SqlFragment =>
  sql`INSERT INTO support_ticket_contexts (id, ticket_id, kind, bundle, path, bytes, created_at)
    VALUES (${row.id}, ${row.ticketId}, ${row.kind}, ${row.bundle}, ${row.path}, ${row.bytes},
      ${row.createdAt})`;

/** The ticket if it belongs to the account. */
export const ticketOfStatement = (accountId: string, ticketId: string): SqlFragment =>
  sql`SELECT ${raw(TICKET_COLUMNS)} FROM support_tickets
    WHERE id = ${ticketId} AND account_id = ${accountId}`;

export const contextCountStatement = (ticketId: string): SqlFragment =>
  sql`SELECT COUNT(*) AS n FROM support_ticket_contexts WHERE ticket_id = ${ticketId}`;

export type TicketListingDbRow = TicketDbRow & { email: string; context_count: number };

/** Every ticket with its account's e-mail and context count, newest first. */
export const ticketListStatement = (limit: number): SqlFragment =>
  sql`SELECT t.id, t.account_id, t.project_id, t.subject, t.message, t.severity, t.status,
      t.created_at, a.email,
      (SELECT COUNT(*) FROM support_ticket_contexts c WHERE c.ticket_id = t.id) AS context_count
    FROM support_tickets t JOIN accounts a ON a.id = t.account_id
    ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`;

export const toTicketListing = (r: TicketListingDbRow): SupportTicketListing => ({
  ...toTicket(r),
  email: r.email,
  contextCount: r.context_count,
});
