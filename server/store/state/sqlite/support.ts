import type { Db } from '../../sqlite/database';
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
import { allRows, firstRow, runStatement } from '../../sqlite/sqlite-sql';
import { receiptWriter } from './idempotency';

export function sqliteSupport(db: Db): SupportStore {
  const writeReceipt = receiptWriter(db);
  const contexts = (ticketId: string) =>
    firstRow<{ n: number }>(db, contextCountStatement(ticketId))?.n ?? 0;
  return {
    async createTicket(row, receipt) {
      db.transaction(() => {
        runStatement(db, insertTicket(row));
        if (receipt) writeReceipt(receipt);
      })();
    },
    async ticketOf(accountId, ticketId) {
      const r = firstRow<TicketDbRow>(db, ticketOfStatement(accountId, ticketId));
      return r ? toTicket(r) : null;
    },
    async addContext(row, maxPerTicket, receipt) {
      return db.transaction(() => {
        if (contexts(row.ticketId) >= maxPerTicket) return false;
        runStatement(db, insertContext(row));
        if (receipt) writeReceipt(receipt);
        return true;
      })();
    },
    async contextCount(ticketId) {
      return contexts(ticketId);
    },
    async list(limit) {
      return allRows<TicketListingDbRow>(db, ticketListStatement(limit)).map(toTicketListing);
    },
  };
}
