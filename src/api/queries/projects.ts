import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import { retryDelayMs, shouldRetry } from '../errors';
import type { components } from '../schema.gen';
import { accountQueries } from './account';

export type Project = components['schemas']['Project'];
export type IngestKey = components['schemas']['IngestKey'];

export type CreateProjectInput = {
  name: string;
  organizationId?: string | undefined;
  /** One per submission; a retry of the same submission sends the same key. */
  idempotencyKey: string;
};

export type CreateIngestKeyInput = {
  projectId: string;
  name?: string | undefined;
  idempotencyKey: string;
};

export const projectsQueries = {
  all: () => ['projects'] as const,
  lists: () => [...projectsQueries.all(), 'list'] as const,
  list: () =>
    queryOptions({
      queryKey: projectsQueries.lists(),
      queryFn: () => call(api.GET('/api/projects')),
    }),
  detail: (projectId: string) => [...projectsQueries.all(), 'detail', projectId] as const,
  ingestKeys: (projectId: string) => [...projectsQueries.detail(projectId), 'ingest-keys'] as const,
};

/**
 * Both creates carry an `Idempotency-Key` in their variables, so an automatic retry of a
 * transient failure re-sends the same key and body and cannot create a second record.
 */
const idempotentRetry = {
  retry: (failures: number, error: unknown) => shouldRetry(error, failures + 1, 'idempotent-write'),
  retryDelay: (attempt: number, error: unknown) => retryDelayMs(error, attempt),
};

export const projectsMutations = {
  create: () =>
    mutationOptions({
      mutationKey: [...projectsQueries.all(), 'create'] as const,
      mutationFn: (input: CreateProjectInput) =>
        call(
          api.POST('/api/projects', {
            params: { header: { 'idempotency-key': input.idempotencyKey } },
            body: {
              name: input.name,
              ...(input.organizationId ? { organization_id: input.organizationId } : {}),
            },
          }),
        ),
      ...idempotentRetry,
      // Settled, not only success: the organization's gate (its project count, or a refusal
      // because the plan changed since it was read) is part of the account read.
      onSettled: (_data, _error, _input, _result, { client }) =>
        Promise.all([
          client.invalidateQueries({ queryKey: projectsQueries.lists() }),
          client.invalidateQueries({ queryKey: accountQueries.all() }),
        ]),
    }),
  createIngestKey: () =>
    mutationOptions({
      mutationKey: [...projectsQueries.all(), 'create-ingest-key'] as const,
      mutationFn: (input: CreateIngestKeyInput) =>
        call(
          api.POST('/api/projects/{project_id}/ingest-keys', {
            params: {
              path: { project_id: input.projectId },
              header: { 'idempotency-key': input.idempotencyKey },
            },
            body: input.name ? { name: input.name } : {},
          }),
        ),
      ...idempotentRetry,
      onSuccess: (_data, input, _result, { client }) =>
        client.invalidateQueries({ queryKey: projectsQueries.ingestKeys(input.projectId) }),
      // A refusal means the organization's plan changed since the account was read.
      onError: (_error, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: accountQueries.all() }),
    }),
};
