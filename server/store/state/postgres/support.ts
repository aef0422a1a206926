import type { SupportStore } from '../../../core/store/state/support';
import {
  contextCountStatement,
  insertContext,
  insertTicket,
  ticketListStatement,
  ticketOfStatement,
  toTicket,
  toTicketListing,
  type TicketDbRow,
  type TicketListingDbRow,
} from '../../rows/support';
import type { PgDb } from '../../postgres/pg-database';
import { sql } from '../../rows/sql';
import { receiptWriter } from './idempotency';

export function pgSupport(db: PgDb): SupportStore {
  return {
    async createTicket(row, receipt) {
      await db.tx(async (tx) => {
        await tx.run(insertTicket(row));
        if (receipt) await receiptWriter(tx)(receipt);
      });
    },
    async ticketOf(accountId, ticketId) {
      const r = await db.one<TicketDbRow>(ticketOfStatement(accountId, ticketId));
      return r ? toTicket(r) : null;
    },
    addContext(row, maxPerTicket, receipt) {
      return db.tx(async (tx) => {
        // The ticket's row lock makes count and insert one step per ticket on every instance.
        await tx.run(
          sql`SELECT 1 FROM support_tickets WHERE id = ${row.ticketId} FOR NO KEY UPDATE`,
        );
        const held = await tx.one<{ n: number }>(contextCountStatement(row.ticketId));
        if ((held?.n ?? 0) >= maxPerTicket) return false;
        await tx.run(insertContext(row));
        if (receipt) await receiptWriter(tx)(receipt);
        return true;
      });
    },
    async contextCount(ticketId) {
      return (await db.one<{ n: number }>(contextCountStatement(ticketId)))?.n ?? 0;
    },
    async list(limit) {
      return (await db.rows<TicketListingDbRow>(ticketListStatement(limit))).map(toTicketListing);
    },
  };
}
