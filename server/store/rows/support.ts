import type { SupportSeverity, SupportTicketRecord } from '../../core/store/state/support';

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
