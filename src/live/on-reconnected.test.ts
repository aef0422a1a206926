import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../api/query-client';
import { onReconnected } from './on-reconnected';

describe('onReconnected', () => {
  it('invalidates the lists and leaves other queries alone', async () => {
    const client = createQueryClient({ retry: false });
    client.setQueryData(['projects', 'list'], []);
    client.setQueryData(['logs', 'list', { since: '24h' }], []);
    client.setQueryData(['projects', 'detail', 'p1'], {});
    client.setQueryData(['account', 'me'], {});

    await onReconnected(client);

    const invalidated = (key: unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(invalidated(['projects', 'list'])).toBe(true);
    expect(invalidated(['logs', 'list', { since: '24h' }])).toBe(true);
    expect(invalidated(['projects', 'detail', 'p1'])).toBe(false);
    expect(invalidated(['account', 'me'])).toBe(false);
  });
});
