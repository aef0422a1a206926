import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/query-client';
import type { Issue } from '../../api/queries/issues';
import { useLiveStore } from '../../live/live-store';
import { useTriageSync } from './use-triage-sync';

const ID = '00000000-0000-4000-8000-000000000001';
const listKey = ['issues', 'list', { since: '24h' }];
const detailKey = ['issues', 'detail', ID, 'issue'];
const inboxKey = ['issues', 'notifications'];

const issue = (over: Partial<Issue> = {}) =>
  ({
    id: ID,
    status: 'unresolved',
    priority: 'high',
    priority_source: 'derived',
    assignee: null,
    ...over,
  }) as Issue;
const list = (i: Issue) => ({
  pages: [{ issues: [i], next_cursor: null, since: '2026-11-19T00:00:00.000Z' }],
  pageParams: [null],
});
const inbox = (...ids: string[]) => ({
  pages: [{ notifications: ids.map((id) => ({ id })), unread: 0, read_at: null }],
  pageParams: [null],
});

function setup() {
  const client = createQueryClient({ retry: false });
  // Read before the hook mounts, as a route loader does.
  client.setQueryData(listKey, list(issue()));
  client.setQueryData(detailKey, issue());
  client.setQueryData(inboxKey, inbox('n1'));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  renderHook(() => useTriageSync(), { wrapper });
  const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
  return { client, stale };
}

describe('useTriageSync', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads the inbox again when a read shows that triage changed', () => {
    const { client, stale } = setup();
    act(() => {
      client.setQueryData(listKey, list(issue({ priority: 'low', priority_source: 'manual' })));
      vi.advanceTimersByTime(500);
    });
    expect(stale(inboxKey)).toBe(true);
    expect(stale(listKey)).toBe(false);
  });

  it('does not for a read that changed nothing of triage', () => {
    const { client, stale } = setup();
    act(() => {
      client.setQueryData(listKey, list(issue()));
      vi.advanceTimersByTime(500);
    });
    expect(stale(inboxKey)).toBe(false);
  });

  it('reads the board and the issue again when a notification arrives', () => {
    const { client, stale } = setup();
    act(() => {
      client.setQueryData(inboxKey, inbox('n2', 'n1'));
      vi.advanceTimersByTime(500);
    });
    expect(stale(listKey)).toBe(true);
    expect(stale(detailKey)).toBe(true);
  });

  it('reads the issue and the inbox again after the feed reconnects', () => {
    const { stale } = setup();
    act(() => {
      useLiveStore.setState((s) => ({ reconnects: s.reconnects + 1 }));
      vi.advanceTimersByTime(500);
    });
    expect(stale(detailKey)).toBe(true);
    expect(stale(inboxKey)).toBe(true);
  });
});
