import { mutationOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import { retryDelayMs, shouldRetry } from '../errors';
import type { components } from '../schema.gen';
import type { InvestigationBundle } from './investigations';

export type SupportTicket = components['schemas']['SupportTicket'];
export type SupportTicketContext = components['schemas']['SupportTicketContext'];
export type SupportSeverity = SupportTicket['severity'];

export type CreateTicketInput = {
  subject: string;
  message: string;
  projectId?: string | undefined;
  severity: SupportSeverity;
  idempotencyKey: string;
};

export type AttachBundleInput = {
  ticketId: string;
  bundle: InvestigationBundle;
  idempotencyKey: string;
};

/**
 * Both writes carry an `Idempotency-Key`, so an automatic retry of a transient failure
 * re-sends the same key and body and cannot open a second ticket or attach twice.
 */
const idempotentRetry = {
  retry: (failures: number, error: unknown) => shouldRetry(error, failures + 1, 'idempotent-write'),
  retryDelay: (attempt: number, error: unknown) => retryDelayMs(error, attempt),
};

export const supportMutations = {
  createTicket: () =>
    mutationOptions({
      mutationKey: ['support', 'tickets', 'create'] as const,
      mutationFn: (input: CreateTicketInput) =>
        call(
          api.POST('/api/support/tickets', {
            params: { header: { 'idempotency-key': input.idempotencyKey } },
            body: {
              subject: input.subject,
              message: input.message,
              severity: input.severity,
              ...(input.projectId ? { project_id: input.projectId } : {}),
            },
          }),
        ),
      ...idempotentRetry,
    }),
  /** Attaches a bundle exactly as the investigation read returned it (the service stores it as sent). */
  attachBundle: () =>
    mutationOptions({
      mutationKey: ['support', 'tickets', 'context'] as const,
      mutationFn: (input: AttachBundleInput) =>
        call(
          api.POST('/api/support/tickets/{ticket_id}/context', {
            params: {
              path: { ticket_id: input.ticketId },
              header: { 'idempotency-key': input.idempotencyKey },
            },
            body: { kind: 'investigation', bundle: input.bundle },
          }),
        ),
      ...idempotentRetry,
    }),
};
