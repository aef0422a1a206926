import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import {
  issuesQueries,
  postBulk,
  type BulkChange,
  type BulkOutcome,
  type Issue,
  type IssuePriority,
} from '../../api/queries/issues';
import { derivedPrioritiesLost, planBulk, planUndo, type BulkRequest } from './board';

export type BulkRowResult = {
  issueId: string;
  title: string;
  outcome: BulkOutcome | 'failed';
};

/** One bulk change as it ran: what was asked, each id's outcome, and how to undo it. */
export type BulkRun = {
  label: string;
  change: BulkChange;
  rows: BulkRowResult[];
  /** The requests that put back what this run changed (empty for an undo or nothing updated). */
  undo: BulkRequest[];
  undoOf: boolean;
  /**
   * Issues whose priority was derived before the change: its undo can only set the earlier
   * value back as a manual priority (the service cannot return a priority to derived).
   */
  manualAfterUndo: readonly { issueId: string; priority: IssuePriority }[];
  /** Failed requests, with the error of the first. */
  error: unknown;
};

async function runRequests(
  requests: readonly BulkRequest[],
  titles: ReadonlyMap<string, string>,
): Promise<{
  rows: BulkRowResult[];
  results: Awaited<ReturnType<typeof postBulk>>;
  error: unknown;
}> {
  const rows: BulkRowResult[] = [];
  const results: Awaited<ReturnType<typeof postBulk>> = [];
  let error: unknown = null;
  // One project at a time, 100 ids per request (the service's limit).
  for (const req of requests) {
    try {
      const out = await postBulk(req.projectId, req.issueIds, req.change);
      results.push(...out);
      for (const r of out) {
        rows.push({
          issueId: r.issueId,
          title: r.issue?.title ?? titles.get(r.issueId) ?? r.issueId,
          outcome: r.outcome,
        });
      }
    } catch (e) {
      error ??= e;
      for (const id of req.issueIds) {
        rows.push({ issueId: id, title: titles.get(id) ?? id, outcome: 'failed' });
      }
    }
  }
  return { rows, results, error };
}

/** Runs bulk changes per project and keeps the last run (its outcomes and its undo). */
export function useBulkTriage() {
  const client = useQueryClient();
  const [run, setRun] = useState<BulkRun | null>(null);
  const [pending, setPending] = useState(false);

  const apply = useCallback(
    async (issues: readonly Issue[], change: BulkChange, label: string) => {
      if (issues.length === 0) return;
      setPending(true);
      const before = new Map(issues.map((i) => [i.id, i]));
      const titles = new Map(issues.map((i) => [i.id, i.title]));
      try {
        const { rows, results, error } = await runRequests(planBulk(issues, change), titles);
        setRun({
          label,
          change,
          rows,
          undo: planUndo(change, results, before),
          undoOf: false,
          manualAfterUndo: derivedPrioritiesLost(change, results, before).map((i) => ({
            issueId: i.id,
            priority: i.priority,
          })),
          error,
        });
      } finally {
        setPending(false);
        await client.invalidateQueries({ queryKey: issuesQueries.lists() });
      }
    },
    [client],
  );

  const undo = useCallback(async () => {
    if (!run || run.undo.length === 0) return;
    setPending(true);
    const titles = new Map(run.rows.map((r) => [r.issueId, r.title]));
    try {
      const { rows, error } = await runRequests(run.undo, titles);
      setRun({
        label: `Undo: ${run.label}`,
        change: run.change,
        rows,
        undo: [],
        undoOf: true,
        manualAfterUndo: run.manualAfterUndo,
        error,
      });
    } finally {
      setPending(false);
      await client.invalidateQueries({ queryKey: issuesQueries.lists() });
    }
  }, [client, run]);

  return { run, pending, apply, undo, dismiss: () => setRun(null) };
}
