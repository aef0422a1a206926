import { Popover } from 'radix-ui';
import { useState, type ComponentProps } from 'react';
import type { CatalogParams } from '../../api/queries/logs';
import {
  describeComparison,
  describeFilter,
  draftOf,
  MAX_ATTRIBUTE_FILTERS,
  type AttributeFilter,
} from '../../lib/attribute-filter';
import { AttributePath } from '../../ui/attribute-path';
import { buttonClass } from '../../ui/button';
import { CloseIcon, PlusIcon } from '../../ui/icons';
import popover from '../../ui/popover.module.css';
import { AttributeCoverage } from './attribute-coverage';
import styles from './attribute-filter-bar.module.css';
import { AttributeFilterEditor } from './attribute-filter-editor';

/**
 * The attribute filters of the list as chips (click to change, × to remove), the button that
 * adds one from the catalog, and — while any is active — how much of the range they search.
 */
export function AttributeFilterBar({
  filters,
  catalog,
  onChange,
}: {
  filters: readonly AttributeFilter[];
  catalog: CatalogParams;
  onChange: (filters: AttributeFilter[]) => void;
}) {
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const full = filters.length >= MAX_ATTRIBUTE_FILTERS;

  return (
    <div className={styles.bar} role="group" aria-label="Attribute filters">
      {filters.map((filter, index) => {
        const label = describeFilter(filter);
        return (
          <span key={`${index}:${label}`} className={styles.chip}>
            <Popover.Root
              open={editing === index}
              onOpenChange={(open) => setEditing(open ? index : null)}
            >
              <Popover.Trigger className={styles.chipLabel} aria-label={`Change filter ${label}`}>
                <FilterText filter={filter} />
              </Popover.Trigger>
              <EditorPopover
                label="Change attribute filter"
                catalog={catalog}
                initial={draftOf(filter)}
                others={filters.filter((_, i) => i !== index)}
                onApply={(next) => {
                  onChange(filters.map((f, i) => (i === index ? next : f)));
                  setEditing(null);
                }}
                onCancel={() => setEditing(null)}
              />
            </Popover.Root>
            <button
              type="button"
              className={styles.chipRemove}
              aria-label={`Remove filter ${label}`}
              onClick={() => onChange(filters.filter((_, i) => i !== index))}
            >
              <CloseIcon size={12} />
            </button>
          </span>
        );
      })}

      <Popover.Root
        open={editing === 'new'}
        onOpenChange={(open) => setEditing(open ? 'new' : null)}
      >
        <Popover.Trigger
          className={buttonClass('ghost', 'sm')}
          disabled={full}
          title={full ? `At most ${MAX_ATTRIBUTE_FILTERS} attribute filters` : undefined}
        >
          <PlusIcon />
          Attribute filter
        </Popover.Trigger>
        <EditorPopover
          label="Add attribute filter"
          catalog={catalog}
          initial={null}
          others={filters}
          onApply={(filter) => {
            onChange([...filters, filter]);
            setEditing(null);
          }}
          onCancel={() => setEditing(null)}
        />
      </Popover.Root>

      {filters.length > 0 && <AttributeCoverage catalog={catalog} />}
    </div>
  );
}

/** The filter editor in a popover, for a new filter or a chip being changed. */
function EditorPopover({
  label,
  ...editor
}: { label: string } & ComponentProps<typeof AttributeFilterEditor>) {
  return (
    <Popover.Portal>
      <Popover.Content
        className={popover.surface}
        align="start"
        sideOffset={6}
        collisionPadding={12}
        aria-label={label}
        // React events bubble through the portal: the filter's submit must not also submit a
        // form the bar sits in (the alert rule editor's).
        onSubmit={(event) => event.stopPropagation()}
      >
        <AttributeFilterEditor {...editor} />
      </Popover.Content>
    </Popover.Portal>
  );
}

/** The chip's text: the path as a person reads it, then the comparison (`describeFilter`). */
function FilterText({ filter }: { filter: AttributeFilter }) {
  return (
    <>
      <code className={styles.chipPath}>
        <AttributePath pointer={filter.path} />
      </code>
      <span className={styles.chipRest}>{describeComparison(filter)}</span>
    </>
  );
}
