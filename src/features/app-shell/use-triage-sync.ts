import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { issueDetailQueries } from '../../api/queries/issue-detail';
import { issuesQueries } from '../../api/queries/issues';
import { useLiveStore } from '../../live/live-store';
import { triageSignature } from './triage-signature';

/** Changes seen together are answered with one read. */
const SETTLE_MS = 300;

/**
 * Keeps the issue pages and the inbox in step with what others do. The live feed carries
 * ingest events only (spec, Events): someone else's triage reaches this tab through reads. So:
 * - a new notification makes the issue lists and the issue on screen read again;
 * - a read that shows an issue's triage changed makes the inbox read again;
 * - after the feed reconnects, the issue on screen and the inbox are read again (the lists
 *   already are, by `onReconnected`).
 * Only queries on screen are read; the others are marked stale. Mount once.
 */
export function useTriageSync(): void {
  const client = useQueryClient();

  useEffect(() => {
    const seen = new Map<string, string>();
    let issuesTimer: number | null = null;
    let inboxTimer: number | null = null;
    const rereadIssues = () => {
      issuesTimer ??= window.setTimeout(() => {
        issuesTimer = null;
        void client.invalidateQueries({ queryKey: issuesQueries.lists() });
        void client.invalidateQueries({ queryKey: [...issueDetailQueries.all(), 'detail'] });
      }, SETTLE_MS);
    };
    const rereadInbox = () => {
      inboxTimer ??= window.setTimeout(() => {
        inboxTimer = null;
        void client.invalidateQueries({ queryKey: issuesQueries.notifications().queryKey });
      }, SETTLE_MS);
    };

    // What was read before this mounted (a route loader reads before the page renders).
    for (const query of client.getQueryCache().getAll()) {
      const signature = triageSignature(query.queryKey, query.state.data);
      if (signature !== null) seen.set(query.queryHash, signature.value);
    }

    const unsubscribeCache = client.getQueryCache().subscribe((event) => {
      if (event.type === 'removed') {
        seen.delete(event.query.queryHash);
        return;
      }
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const signature = triageSignature(event.query.queryKey, event.query.state.data);
      if (signature === null) return;
      const before = seen.get(event.query.queryHash);
      seen.set(event.query.queryHash, signature.value);
      if (before === undefined || before === signature.value) return;
      if (signature.kind === 'notifications') rereadIssues();
      else rereadInbox();
    });

    const unsubscribeLive = useLiveStore.subscribe((state, previous) => {
      if (state.reconnects <= previous.reconnects) return;
      void client.invalidateQueries({ queryKey: [...issueDetailQueries.all(), 'detail'] });
      rereadInbox();
    });

    return () => {
      unsubscribeCache();
      unsubscribeLive();
      if (issuesTimer !== null) window.clearTimeout(issuesTimer);
      if (inboxTimer !== null) window.clearTimeout(inboxTimer);
    };
  }, [client]);
}
