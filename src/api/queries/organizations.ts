import { mutationOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import { retryDelayMs, shouldRetry } from '../errors';
import type { components } from '../schema.gen';
import { accountQueries, usageQueries } from './account';
import { projectsQueries } from './projects';

export type Organization = components['schemas']['Organization'];

export type CreateOrganizationInput = {
  name: string;
  /** One per submission; a retry of the same submission sends the same key. */
  idempotencyKey: string;
};

export const organizationsMutations = {
  /**
   * `POST /api/organizations` (ours), gated by subscription readiness. Carries an
   * `Idempotency-Key`, so an automatic retry of a transient failure cannot create two.
   */
  create: () =>
    mutationOptions({
      mutationKey: ['organizations', 'create'] as const,
      mutationFn: (input: CreateOrganizationInput) =>
        call(
          api.POST('/api/organizations', {
            params: { header: { 'idempotency-key': input.idempotencyKey } },
            body: { name: input.name },
          }),
        ),
      retry: (failures: number, error: unknown) =>
        shouldRetry(error, failures + 1, 'idempotent-write'),
      retryDelay: (attempt: number, error: unknown) => retryDelayMs(error, attempt),
      // Settled, not only success: a refusal means readiness changed since it was read.
      onSettled: (_data, _error, _input, _result, { client }) =>
        Promise.all([
          client.invalidateQueries({ queryKey: accountQueries.all() }),
          client.invalidateQueries({ queryKey: projectsQueries.all() }),
          client.invalidateQueries({ queryKey: usageQueries.subscription().queryKey }),
        ]),
    }),
};
