import type { Db } from '../../sqlite/database';
import type { SupportStore } from '../../../core/store/state/support';
import { toTicket, type TicketDbRow } from '../../rows/support';
import { receiptWriter } from './idempotency';

export function sqliteSupport(db: Db): SupportStore {
  const insertTicket = db.prepare(`INSERT INTO support_tickets
    (id, account_id, project_id, subject, message, severity, status, created_at)
    VALUES (@id, @accountId, @projectId, @subject, @message, @severity, @status, @createdAt)`);
  const insertContext = db.prepare(`INSERT INTO support_ticket_contexts
    (id, ticket_id, kind, bundle, path, bytes, created_at)
    VALUES (@id, @ticketId, @kind, @bundle, @path, @bytes, @createdAt)`);
  const ticketOf = db.prepare<[string, string], TicketDbRow>(
    'SELECT * FROM support_tickets WHERE id = ? AND account_id = ?',
  );
  const contexts = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM support_ticket_contexts WHERE ticket_id = ?',
  );
  const list = db.prepare<[number], TicketDbRow & { email: string; context_count: number }>(
    `SELECT t.*, a.email,
       (SELECT COUNT(*) FROM support_ticket_contexts c WHERE c.ticket_id = t.id) AS context_count
     FROM support_tickets t JOIN accounts a ON a.id = t.account_id
     ORDER BY t.created_at DESC, t.id DESC LIMIT ?`,
  );
  const writeReceipt = receiptWriter(db);
  return {
    async createTicket(row, receipt) {
      db.transaction(() => {
        insertTicket.run(row);
        if (receipt) writeReceipt(receipt);
      })();
    },
    async ticketOf(accountId, ticketId) {
      const r = ticketOf.get(ticketId, accountId);
      return r ? toTicket(r) : null;
    },
    async addContext(row, maxPerTicket, receipt) {
      return db.transaction(() => {
        if ((contexts.get(row.ticketId)?.n ?? 0) >= maxPerTicket) return false;
        insertContext.run(row);
        if (receipt) writeReceipt(receipt);
        return true;
      })();
    },
    async contextCount(ticketId) {
      return contexts.get(ticketId)?.n ?? 0;
    },
    async list(limit) {
      return list
        .all(limit)
        .map((r) => ({ ...toTicket(r), email: r.email, contextCount: r.context_count }));
    },
  };
}
