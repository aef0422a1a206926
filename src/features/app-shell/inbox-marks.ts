/**
 * The inbox's read mark (spec "Issue changes": `POST …/notifications/read` moves it and it
 * never moves backward). The service counts a notification as unread when its `at` is later
 * than `read_at` (strictly; `read_at` null means nothing was ever read).
 */

/** Whether a notification at `at` is new against the read mark `readAt`. */
export function isNewSince(at: string, readAt: string | null): boolean {
  if (readAt === null) return true;
  return Date.parse(at) > Date.parse(readAt);
}

/**
 * Where to move the read mark now that `shown` (newest first) is on screen: to the time of the
 * newest one shown, and only when every unread notification is among those shown. The mark
 * covers everything up to it, so moving it to "now" would mark as read what arrived after the
 * inbox was read, and moving it while older unread ones are on a page not shown would mark
 * those. Null: leave the mark where it is.
 */
export function readMarkFor(
  shown: readonly { at: string }[],
  readAt: string | null,
  unread: number,
): string | null {
  const newest = shown[0];
  if (newest === undefined || !isNewSince(newest.at, readAt)) return null;
  return unreadShown(shown, readAt) >= unread ? newest.at : null;
}

/** How many of the shown notifications are unread against `readAt`. */
export function unreadShown(shown: readonly { at: string }[], readAt: string | null): number {
  return shown.filter((n) => isNewSince(n.at, readAt)).length;
}
