import { Popover } from 'radix-ui';
import { useState } from 'react';
import type { CatalogParams } from '../../api/queries/logs';
import { buttonClass } from '../../ui/button';
import { PlusIcon } from '../../ui/icons';
import { AttributePathPicker } from '../../widgets/attribute-filters/attribute-path-picker';
import styles from './column-picker.module.css';
import { MAX_COLUMNS } from './logs-search';
import { PopoverPanel } from '../../ui/popover-panel';

/** Adds an attribute path as a column of the list (kept in the URL's `columns`). */
export function ColumnPicker({
  catalog,
  columns,
  onChange,
}: {
  catalog: CatalogParams;
  columns: readonly string[];
  onChange: (columns: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const full = columns.length >= MAX_COLUMNS;
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        className={buttonClass('ghost', 'sm')}
        disabled={full}
        title={full ? `At most ${MAX_COLUMNS} attribute columns` : undefined}
      >
        <PlusIcon />
        Column
      </Popover.Trigger>
      <PopoverPanel label="Add a column" className={styles.panel}>
        <p className={styles.title}>Show an attribute as a column</p>
        <AttributePathPicker
          catalog={catalog}
          label="Attribute path for a column"
          isChosen={(a) => columns.includes(a.path)}
          onPick={(a) => {
            if (!columns.includes(a.path)) onChange([...columns, a.path]);
            setOpen(false);
          }}
        />
      </PopoverPanel>
    </Popover.Root>
  );
}
