import { z } from '@hono/zod-openapi';
import { fail } from '../core/api-error';
import { parseRfc3339 } from '../domain/read-rules/time-range';
import { iso } from '../views/telemetry-views';

/**
 * The read mark of a notification inbox (issue assignments, alert notifications): the
 * same body, the same answer and the same rule, that the mark never moves backward and
 * a time later than now is taken as now.
 */
export type ReadMarkInbox = {
  notifications(q: {
    accountId: string;
    projectIds: string[];
    after: null;
    limit: number;
  }): Promise<{ unread: number }>;
  markNotificationsRead(accountId: string, at: number): Promise<number>;
};

export const readMarkBody = (name: string) =>
  z
    .object({
      read_at: z.string().optional().openapi({
        format: 'date-time',
        description: 'RFC3339; omitted means now. A time later than now is taken as now.',
      }),
    })
    .strict()
    .openapi(name);

export const readMarkAnswer = (name: string) =>
  z
    .object({ read_at: z.string().openapi({ format: 'date-time' }), unread: z.number().int() })
    .openapi(name);

/** Moves the account's mark to `readAt` (now when omitted); the mark in force and unread. */
export async function moveReadMark(
  inbox: ReadMarkInbox,
  q: { accountId: string; projectIds: string[]; readAt: string | undefined; now: number },
): Promise<{ read_at: string; unread: number }> {
  let at = q.now;
  if (q.readAt !== undefined) {
    const parsed = parseRfc3339(q.readAt);
    if (parsed === null) throw fail.validation('read_at must be an RFC3339 timestamp');
    at = Math.min(parsed, q.now);
  }
  const mark = await inbox.markNotificationsRead(q.accountId, at);
  const { unread } = await inbox.notifications({
    accountId: q.accountId,
    projectIds: q.projectIds,
    after: null,
    limit: 0,
  });
  return { read_at: iso(mark), unread };
}
