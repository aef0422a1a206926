import type { SupportStore } from '../../../core/store/state/support';
import { TICKET_COLUMNS, toTicket, type TicketDbRow } from '../../rows/support';
import type { PgDb } from '../../postgres/pg-database';
import { receiptWriter } from './idempotency';
import { sql, raw } from '../../rows/sql';

export function pgSupport(db: PgDb): SupportStore {
  return {
    async createTicket(row, receipt) {
      await db.tx(async (tx) => {
        await tx.run(
          sql`INSERT INTO support_tickets (${raw(TICKET_COLUMNS)}) VALUES (${row.id},
          ${row.accountId}, ${row.projectId}, ${row.subject}, ${row.message}, ${row.severity},
          ${row.status}, ${row.createdAt})`,
        );
        if (receipt) await receiptWriter(tx)(receipt);
      });
    },
    async ticketOf(accountId, ticketId) {
      const r = await db.one<TicketDbRow>(
        sql`SELECT ${raw(TICKET_COLUMNS)} FROM support_tickets WHERE id = ${ticketId} AND account_id = ${accountId}`,
      );
      return r ? toTicket(r) : null;
    },
    addContext(row, maxPerTicket, receipt) {
      return db.tx(async (tx) => {
        // The ticket's row lock makes count and insert one step per ticket on every instance.
        await tx.run(
          sql`SELECT 1 FROM support_tickets WHERE id = ${row.ticketId} FOR NO KEY UPDATE`,
        );
        const held = await tx.one<{ n: number }>(
          sql`SELECT COUNT(*) AS n FROM support_ticket_contexts WHERE ticket_id = ${row.ticketId}`,
        );
        if ((held?.n ?? 0) >= maxPerTicket) return false;
        await tx.run(sql`INSERT INTO support_ticket_contexts (id, ticket_id, kind, bundle, path, bytes, created_at)
           VALUES (${row.id}, ${row.ticketId}, ${row.kind}, ${row.bundle}, ${row.path},
           ${row.bytes}, ${row.createdAt})`);
        if (receipt) await receiptWriter(tx)(receipt);
        return true;
      });
    },
    async contextCount(ticketId) {
      const r = await db.one<{ n: number }>(
        sql`SELECT COUNT(*) AS n FROM support_ticket_contexts WHERE ticket_id = ${ticketId}`,
      );
      return r?.n ?? 0;
    },
    async list(limit) {
      const rows = await db.rows<
        TicketDbRow & { email: string; context_count: number }
      >(sql`SELECT t.id, t.account_id, t.project_id, t.subject, t.message, t.severity, t.status,
           t.created_at, a.email,
           (SELECT COUNT(*) FROM support_ticket_contexts c WHERE c.ticket_id = t.id) AS context_count
         FROM support_tickets t JOIN accounts a ON a.id = t.account_id
         ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`);
      return rows.map((r) => ({ ...toTicket(r), email: r.email, contextCount: r.context_count }));
    },
  };
}
