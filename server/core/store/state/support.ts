import type { IdempotencyReceipt } from './idempotency';

/** Support tickets as stored for the operator (no e-mail is sent anywhere). */
export interface SupportStore {
  /** With a receipt, its Idempotency-Key replay record is written in the same transaction (also addContext). */
  createTicket(row: SupportTicketRecord, receipt?: IdempotencyReceipt | null): Promise<void>;
  /** The ticket if it belongs to the account, else null. */
  ticketOf(accountId: string, ticketId: string): Promise<SupportTicketRecord | null>;
  /**
   * Attaches the context unless the ticket already holds `maxPerTicket`, checked in the same
   * transaction so concurrent attachments cannot pass the limit; false (nothing written) when full.
   */
  addContext(
    row: SupportContextRecord,
    maxPerTicket: number,
    receipt?: IdempotencyReceipt | null,
  ): Promise<boolean>;
  contextCount(ticketId: string): Promise<number>;
  /** Every ticket, newest first (the operator's command). */
  list(limit: number): Promise<SupportTicketListing[]>;
}

export const SUPPORT_SEVERITIES = ['low', 'normal', 'high', 'urgent'] as const;

export type SupportSeverity = (typeof SUPPORT_SEVERITIES)[number];

export type SupportTicketRecord = {
  id: string;
  accountId: string;
  projectId: string | null;
  subject: string;
  message: string;
  severity: SupportSeverity;
  status: 'open';
  createdAt: number;
};

/** Context attached to a ticket: an investigation bundle (stored as sent) or a path to one. */
export type SupportContextRecord = {
  id: string;
  ticketId: string;
  kind: 'investigation' | 'reference';
  /** The bundle's JSON text (kind `investigation`), else null. */
  bundle: string | null;
  /** The read path (kind `reference`), else null. */
  path: string | null;
  bytes: number;
  createdAt: number;
};

/** A ticket with its account's e-mail and context count, for the operator's listing. */
export type SupportTicketListing = SupportTicketRecord & { email: string; contextCount: number };
