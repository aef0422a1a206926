import type {
  InfiniteData,
  UseInfiniteQueryResult,
  UseMutationResult,
} from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { isNewSince, readMarkFor, unreadShown } from './inbox-marks';

/** One page of an inbox read: both inboxes (issue assignments, alerts) answer in this shape. */
export type InboxPage<T> = { notifications: T[]; unread: number; read_at: string | null };

/**
 * The read state of one inbox while the bell's panel is open or closed: what is unread, what
 * shows as New (against the mark of the read on screen when the panel opened, kept until it
 * closes), and the mark moved to the newest entry shown once every unread one is shown.
 */
export function useInboxState<T extends { at: string }>(
  query: UseInfiniteQueryResult<InfiniteData<InboxPage<T>, unknown>>,
  markRead: UseMutationResult<unknown, Error, string>,
  open: boolean,
) {
  const [openedAgainst, setOpenedAgainst] = useState<{ readAt: string | null } | null>(null);
  const first = query.data?.pages[0];
  const readAt = first?.read_at ?? null;
  const unread = first?.unread ?? 0;
  const entries = useMemo(
    () => query.data?.pages.flatMap((p) => p.notifications) ?? [],
    [query.data],
  );
  if (open && openedAgainst === null && first !== undefined) {
    setOpenedAgainst({ readAt: first.read_at });
  } else if (!open && openedAgainst !== null) {
    setOpenedAgainst(null);
  }
  const newSince = openedAgainst === null ? readAt : openedAgainst.readAt;
  const hiddenUnread = Math.max(0, unread - unreadShown(entries, readAt));

  // While open, what is on screen is read: move the mark to the newest entry shown.
  const markTo = open && openedAgainst !== null ? readMarkFor(entries, readAt, unread) : null;
  const { mutate: mark } = markRead;
  useEffect(() => {
    if (markTo !== null) mark(markTo);
  }, [markTo, mark]);

  return {
    entries,
    unread,
    hiddenUnread,
    isNew: (at: string) => isNewSince(at, newSince),
  };
}
