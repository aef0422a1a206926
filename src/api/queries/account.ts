import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import type { components } from '../schema.gen';

export type Account = components['schemas']['Account'];

export const accountQueries = {
  all: () => ['account'] as const,
  me: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'me'] as const,
      queryFn: () => call(api.GET('/api/account')),
    }),
};

/** Organizations where the account may create projects and ingest keys. */
export function managedOrganizations(account: Account): Account['organizations'] {
  return account.organizations.filter((o) => o.role === 'owner' || o.role === 'admin');
}
