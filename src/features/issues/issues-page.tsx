import { useQueryClient, useSuspenseInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useTickingNow } from '../../ui/use-ticking-now';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import {
  issuesQueries,
  type BulkChange,
  type Issue,
  type IssueListFilters,
} from '../../api/queries/issues';
import { projectsQueries } from '../../api/queries/projects';
import { ApiError } from '../../api/errors';
import { parseProjectScope, readableScope } from '../../lib/project-scope';
import { parseTimeRange } from '../../lib/time-range';
import { useStableValue } from '../../lib/use-stable-value';
import { useLiveEvents } from '../../live/live-store';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { IssueIcon } from '../../ui/icons';
import { ListPage } from '../../ui/list-page';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { ReadStamp } from '../../ui/read-stamp';
import { StaleNotice } from '../../ui/stale-notice';
import { StateFrame } from '../../ui/state-frame';
import { useNextPageState } from '../../ui/use-next-page-state';
import { useDocumentTitle } from '../../ui/use-document-title';
import { liveIssueOf, matchesBoard, mergeLiveIssues, sortIssues, sparklineLabel } from './board';
import { BulkResultPanel, IssueBulkBar } from './issue-bulk-bar';
import { IssueFilterBar, SortControl, sortLabels } from './issue-filter-bar';
import { IssueList } from './issue-list';
import { clearedIssueFilters, issueFiltersOf, narrowingCount } from './issues-search';
import styles from './issues-page.module.css';
import { ShortcutsDialog } from './shortcuts-dialog';
import { useBulkTriage } from './use-bulk-triage';
import { useIssueHistograms } from './use-issue-histograms';
import { useIssuesSearch, useSetIssuesSearch } from './use-issues-search';

/**
 * `/issues`: the triage board. Issues of the scope and range, filtered in the URL; a
 * virtualized list with live issues at the top, multi-select with a bulk bar that reports each
 * id's outcome and can undo, and keyboard triage.
 */
export function IssuesPage() {
  useDocumentTitle('Issues');
  const search = useIssuesSearch();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readableIds = useMemo(() => projects.map((p) => p.id), [projects]);
  const filters = useStableValue(issueFiltersOf(search, readableIds));
  // A string of the filters: the boundary's reset key and the results' React key.
  const filtersKey = JSON.stringify(filters);
  const scope = readableScope(parseProjectScope(search), readableIds);
  const projectIds = useStableValue(scope.kind === 'all' ? null : scope.ids);
  const assigneeProjectId = projectIds?.[0] ?? readableIds[0] ?? null;
  const [shortcutsOpen, setShortcutsOpen] = useState(false);

  return (
    <ListPage
      title="Issues"
      titleActions={
        <Button
          size="sm"
          variant="ghost"
          className={styles.shortcutsButton}
          onClick={() => setShortcutsOpen(true)}
        >
          Keyboard shortcuts <kbd className={styles.kbd}>?</kbd>
        </Button>
      }
      filters={<IssueFilterBar search={search} assigneeProjectId={assigneeProjectId} />}
    >
      <QueryBoundary
        resetKey={filtersKey}
        pending={
          <StateFrame>
            <PendingState label="Loading issues…" />
          </StateFrame>
        }
        renderError={(error, retry) => (
          <StateFrame>
            <ErrorState error={error} reset={retry} />
          </StateFrame>
        )}
      >
        <IssueResults
          key={filtersKey}
          filters={filters}
          projectIds={projectIds}
          onShowShortcuts={() => setShortcutsOpen(true)}
        />
      </QueryBoundary>
      <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
    </ListPage>
  );
}

const NO_IDS: ReadonlySet<string> = new Set();

/** Whether a key press belongs to something else: a text field, a menu, a dialog. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return target.type !== 'checkbox';
  return (
    target.closest(
      'textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"], [role="menu"], [role="listbox"], [role="combobox"]',
    ) !== null
  );
}

function IssueResults({
  filters,
  projectIds,
  onShowShortcuts,
}: {
  filters: IssueListFilters;
  projectIds: readonly string[] | null;
  onShowShortcuts: () => void;
}) {
  const search = useIssuesSearch();
  const sort = search.sort ?? 'last_seen';
  const client = useQueryClient();
  const navigate = useNavigate();
  const query = useSuspenseInfiniteQuery(issuesQueries.list(filters));
  const { data, hasNextPage } = query;
  const fetched = useMemo(() => data.pages.flatMap((p) => p.issues), [data]);
  const since = data.pages[0]?.since ?? filters.since;
  const fetchedIds = useMemo(() => fetched.map((i) => i.id), [fetched]);
  const histograms = useIssueHistograms(fetchedIds, since);
  const sparkLabel = sparklineLabel(parseTimeRange(search));

  // Live issues: new ones (one occurrence) join the top; a live copy of an older issue that is
  // not on the board makes the board re-read (the feed's version 1 has no priority or assignee).
  const entries = useLiveEvents({ type: 'native_issue', projectIds });
  const { liveRows, fresh, stale } = useMemo(() => {
    const known = new Set(fetched.map((i) => i.id));
    const rows: Issue[] = [];
    const ids = new Set<string>();
    let staleCount = 0;
    for (const entry of entries) {
      const live = liveIssueOf(entry.data);
      if (live === null) continue;
      if (live.known) {
        ids.add(live.issue.id);
        if (matchesBoard(live.issue, filters, since, projectIds)) rows.push(live.issue);
      } else if (
        !known.has(live.issue.id) &&
        Date.parse(live.issue.last_seen_at) > query.dataUpdatedAt
      ) {
        staleCount++;
      }
    }
    return { liveRows: rows, fresh: ids, stale: staleCount };
  }, [entries, fetched, filters, since, projectIds, query.dataUpdatedAt]);
  useEffect(() => {
    if (stale === 0) return;
    const timer = setTimeout(
      () => void client.invalidateQueries({ queryKey: issuesQueries.list(filters).queryKey }),
      1_000,
    );
    return () => clearTimeout(timer);
  }, [stale, client, filters]);

  const rows = useMemo(
    () => sortIssues(mergeLiveIssues(fetched, liveRows), sort),
    [fetched, liveRows, sort],
  );
  const now = useTickingNow(30_000);

  const [selected, setSelected] = useState<ReadonlySet<string>>(NO_IDS);
  const [focused, setFocused] = useState(-1);
  const [assignOpen, setAssignOpen] = useState(false);
  const bulk = useBulkTriage();
  const selectedIssues = useMemo(() => rows.filter((r) => selected.has(r.id)), [rows, selected]);
  const selectedProjects = useMemo(
    () => [...new Set(selectedIssues.map((i) => i.project_id))],
    [selectedIssues],
  );

  const toggle = useCallback((id: string) => {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const apply = useCallback(
    (targets: readonly Issue[], change: BulkChange, label: string) => {
      setAssignOpen(false);
      void bulk.apply(targets, change, label).then(() => setSelected(NO_IDS));
    },
    [bulk],
  );

  // Keyboard triage; never while typing, in a menu or a dialog, or with a modifier.
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey) return;
    if (isTypingTarget(e.target)) return;
    const k = { rows, focused, selectedIssues, apply, toggle };
    const current = k.rows[k.focused];
    const targets = k.selectedIssues.length > 0 ? k.selectedIssues : current ? [current] : [];
    switch (e.key) {
      case 'j':
        setFocused((f) => Math.min(f + 1, k.rows.length - 1));
        break;
      case 'k':
        setFocused((f) => Math.max(f - 1, 0));
        break;
      case 'x':
        if (current) k.toggle(current.id);
        break;
      case 'r':
        if (targets.length > 0) k.apply(targets, { status: 'resolved' }, 'Resolve');
        break;
      case 'e':
        if (targets.length > 0) k.apply(targets, { status: 'archived' }, 'Archive');
        break;
      case 'a':
        if (targets.length === 0) return;
        if (k.selectedIssues.length === 0 && current) k.toggle(current.id);
        setAssignOpen(true);
        break;
      case 'Enter':
        if (!current || (e.target instanceof HTMLElement && e.target.closest('a, button'))) {
          return;
        }
        void navigate({ to: '/issues/$issueId', params: { issueId: current.id } });
        break;
      case '?':
        onShowShortcuts();
        break;
      default:
        return;
    }
    e.preventDefault();
  });
  useEffect(() => {
    const handler = (e: KeyboardEvent) => onKey(e);
    document.addEventListener('keydown', handler);
    return () => document.removeEventListener('keydown', handler);
  }, []);

  const next = useNextPageState(query);

  return (
    <>
      <div className={styles.toolbar}>
        <span className={styles.count}>
          {rows.length.toLocaleString('en-US')} {rows.length === 1 ? 'issue' : 'issues'}
          {hasNextPage ? ' loaded, more as you scroll' : ''}
        </span>
        <ReadStamp
          readAt={query.dataUpdatedAt}
          reading={query.isFetching && !query.isFetchingNextPage}
          onReadAgain={() => void query.refetch()}
        />
        {sort !== 'last_seen' && (
          <span className={styles.sortNote} role="note">
            Sorted by {sortLabels[sort].replace(' (loaded rows)', '').toLowerCase()}: only the{' '}
            {rows.length.toLocaleString('en-US')} loaded issues are reordered
          </span>
        )}
        <SortControl sort={sort} />
        <span className={styles.toolbarHint}>
          <kbd className={styles.kbd}>j</kbd>
          <kbd className={styles.kbd}>k</kbd> move · <kbd className={styles.kbd}>x</kbd> select ·{' '}
          <kbd className={styles.kbd}>?</kbd> all shortcuts
        </span>
      </div>
      {selected.size > 0 && (
        <IssueBulkBar
          count={selectedIssues.length}
          projectIds={selectedProjects}
          pending={bulk.pending}
          assignOpen={assignOpen}
          onAssignOpenChange={setAssignOpen}
          onApply={(change, label) => apply(selectedIssues, change, label)}
          onClear={() => setSelected(NO_IDS)}
        />
      )}
      {bulk.run && (
        <BulkResultPanel
          run={bulk.run}
          pending={bulk.pending}
          onUndo={() => void bulk.undo()}
          onDismiss={bulk.dismiss}
        />
      )}
      <StaleNotice
        what="issues"
        readAt={query.dataUpdatedAt}
        refetchError={query.isRefetchError ? query.error : null}
        onRetry={() => void query.refetch()}
      />
      {histograms.error !== null && rows.length > 0 && <HistogramNotice error={histograms.error} />}
      {rows.length === 0 ? (
        <StateFrame>
          <EmptyIssues />
        </StateFrame>
      ) : (
        <IssueList
          rows={rows}
          focusedIndex={focused}
          selected={selected}
          fresh={fresh}
          now={now}
          histograms={histograms.countsById}
          bucketSeconds={histograms.bucketSeconds}
          sparklineLabel={sparkLabel}
          next={next}
          onFocusRow={setFocused}
          onToggle={toggle}
        />
      )}
    </>
  );
}

/** One small notice when the occurrence sparklines could not be read; the list stays. */
function HistogramNotice({ error }: { error: unknown }) {
  const next =
    error instanceof ApiError && error.next
      ? error.next
      : 'Check the connection to the service, then reload the page.';
  return (
    <div className={styles.notice}>
      <Callout tone="warning" role="status" title="Occurrence trends could not be loaded">
        <p>{next}</p>
      </Callout>
    </div>
  );
}

function EmptyIssues() {
  const search = useIssuesSearch();
  const setSearch = useSetIssuesSearch();
  if (narrowingCount(search) > 0) {
    return (
      <EmptyState
        icon={<IssueIcon />}
        title="No issues match these filters"
        action={
          <Button size="sm" onClick={() => setSearch((p) => clearedIssueFilters(p))}>
            Clear filters
          </Button>
        }
      >
        Nothing in this scope and time range matches every filter. Remove a filter or widen the time
        range. New issues that match appear here as they arrive.
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<IssueIcon />} title="No unresolved issues in this range">
      Errors your services send with a project ingest key are grouped into issues here. Widen the
      time range, choose other projects, or look at resolved and archived issues.
    </EmptyState>
  );
}
