import type { QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import type { InvestigationBundle } from '../../api/queries/investigations';
import { Button } from '../../ui/button';
import { SearchIcon } from '../../ui/icons';
import { InvestigatePanel, type BundleQuery } from './investigate-panel';

/** "Investigate" on a view: opens the panel with that view's bundle. */
export function InvestigateButton<T extends InvestigationBundle, K extends QueryKey>({
  title,
  query,
  size = 'sm',
  label = 'Investigate',
}: {
  title: string;
  query: BundleQuery<T, K>;
  size?: 'sm' | 'md';
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size={size} onClick={() => setOpen(true)}>
        <SearchIcon size={13} aria-hidden="true" />
        {label}
      </Button>
      <InvestigatePanel open={open} onOpenChange={setOpen} title={title} query={query} />
    </>
  );
}
