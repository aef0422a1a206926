import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../../api/errors';
import type { InvestigationBundle } from '../../api/queries/investigations';
import { Button } from '../../ui/button';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { assistantCallOf } from '../assistant-fetch/assistant-call';
import { AssistantFetchLine } from '../assistant-fetch/assistant-fetch-line';
import { SupportDialog } from '../support-dialog/support-dialog';
import { BundleView } from './bundle-view';
import { InvestigateSheet } from './investigate-sheet';

export type BundleQuery<T extends InvestigationBundle, K extends QueryKey> = UseQueryOptions<
  T,
  Error,
  T,
  K
>;

/**
 * The Investigate panel: reads one bundle when opened and shows it whole (subject, coverage,
 * sections, hints), with "Send to support" to attach exactly what was read to a ticket.
 */
export function InvestigatePanel<T extends InvestigationBundle, K extends QueryKey>({
  open,
  onOpenChange,
  title,
  query,
  toolbar,
  note,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  query: BundleQuery<T, K>;
  toolbar?: ReactNode;
  /** How the shown bundle was chosen, from the bundle itself. */
  note?: (bundle: T) => ReactNode;
}) {
  return (
    <InvestigateSheet
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description="The service’s evidence bundle: coverage first, then the evidence, cut to documented limits."
      toolbar={toolbar}
    >
      {open && <PanelBody query={query} note={note} />}
    </InvestigateSheet>
  );
}

function PanelBody<T extends InvestigationBundle, K extends QueryKey>({
  query,
  note,
}: {
  query: BundleQuery<T, K>;
  note: ((bundle: T) => ReactNode) | undefined;
}) {
  const read = useQuery(query);
  const [supportOpen, setSupportOpen] = useState(false);
  if (read.isPending) return <PendingState label="Reading the evidence…" />;
  if (read.isError) {
    const refused = read.error instanceof ApiError && read.error.status === 422;
    return (
      <ErrorState
        error={read.error}
        compact
        {...(refused ? {} : { reset: () => void read.refetch() })}
      />
    );
  }
  const bundle = read.data;
  const assistantCall = assistantCallOf(query.meta);
  return (
    <>
      <BundleView bundle={bundle} note={note?.(bundle)} />
      {assistantCall && <AssistantFetchLine call={assistantCall} />}
      <div>
        <Button onClick={() => setSupportOpen(true)}>Send to support…</Button>
      </div>
      <SupportDialog open={supportOpen} onOpenChange={setSupportOpen} bundle={bundle} />
    </>
  );
}
