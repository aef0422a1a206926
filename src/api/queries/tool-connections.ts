import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import type { components } from '../schema.gen';

export type ToolConnection = components['schemas']['ToolConnection'];
export type CreatedToolConnection = components['schemas']['CreatedToolConnection'];

export type CreateToolConnectionInput = {
  name: string;
  projectIds: string[];
  /** RFC3339 UTC, or null for a connection that does not expire. */
  expiresAt: string | null;
};

export const toolConnectionQueries = {
  all: () => ['tool-connections'] as const,
  list: () =>
    queryOptions({
      queryKey: [...toolConnectionQueries.all(), 'list'] as const,
      queryFn: () => call(api.GET('/api/account/tool-connections')),
    }),
};

export const toolConnectionMutations = {
  // Not retried: the create has no retry key, and a second connection would be a second secret.
  create: () =>
    mutationOptions({
      mutationKey: [...toolConnectionQueries.all(), 'create'] as const,
      mutationFn: (input: CreateToolConnectionInput) =>
        call(
          api.POST('/api/account/tool-connections', {
            body: {
              name: input.name,
              project_ids: input.projectIds,
              ...(input.expiresAt ? { expires_at: input.expiresAt } : {}),
            },
          }),
        ),
      retry: false,
      onSettled: (_data, _error, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: toolConnectionQueries.all() }),
    }),
  revoke: () =>
    mutationOptions({
      mutationKey: [...toolConnectionQueries.all(), 'revoke'] as const,
      mutationFn: (connectionId: string) =>
        call(
          api.DELETE('/api/account/tool-connections/{connection_id}', {
            params: { path: { connection_id: connectionId } },
          }),
        ),
      onSettled: (_data, _error, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: toolConnectionQueries.all() }),
    }),
};
