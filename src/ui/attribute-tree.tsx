import { DropdownMenu } from 'radix-ui';
import type { AttributeFilter } from '../lib/attribute-filter';
import { markBidiControls } from '../lib/bidi-controls';
import { displayKey, displayPointer } from '../lib/json-pointer';
import {
  attributeTree,
  filterForValue,
  valueText,
  type AttributeNode,
} from '../lib/attribute-values';
import { AttributePath } from './attribute-path';
import styles from './attribute-tree.module.css';
import { buttonClass } from './button';
import { LongText } from './long-text';
import { TelemetryText } from './telemetry-text';
import menu from './popover.module.css';

export type AttributeActions = {
  addFilter: (filter: AttributeFilter) => void;
  /** Why this filter cannot be added to the current set (too many, too long), or null. */
  filterProblem: (filter: AttributeFilter) => string | null;
  addColumn: (path: string) => void;
  hasColumn: (path: string) => boolean;
  columnsFull: boolean;
};

/**
 * Attributes (of a log, an issue occurrence) as a tree of keys. With `actions`, each text,
 * number or true/false value can become a filter ("Filter by this value", "Exclude this
 * value" = `ne`) or a column. Values are shown as text, never as markup; a long one is cut to
 * its start until asked for whole.
 */
export function AttributeTree({
  attributes,
  actions,
  emptyText = 'This log has no attributes.',
}: {
  attributes: Record<string, unknown>;
  actions?: AttributeActions | undefined;
  emptyText?: string;
}) {
  const nodes = attributeTree(attributes);
  if (nodes.length === 0) return <p className={styles.none}>{emptyText}</p>;
  return (
    <ul className={styles.tree} aria-label="Attributes">
      {nodes.map((node) => (
        <NodeRow key={node.pointer} node={node} actions={actions} />
      ))}
    </ul>
  );
}

function NodeRow({
  node,
  actions,
}: {
  node: AttributeNode;
  actions: AttributeActions | undefined;
}) {
  if (node.kind === 'object') {
    return (
      <li className={styles.branch}>
        <details open>
          <summary className={styles.summary}>
            <span className={styles.key}>
              <TelemetryText text={displayKey(node.key)} />
            </span>
            <span className={styles.count}>
              {node.children.length === 1 ? '1 key' : `${node.children.length} keys`}
            </span>
          </summary>
          {node.children.length > 0 ? (
            <ul className={styles.children}>
              {node.children.map((child) => (
                <NodeRow key={child.pointer} node={child} actions={actions} />
              ))}
            </ul>
          ) : (
            <p className={styles.emptyObject}>(empty object)</p>
          )}
        </details>
      </li>
    );
  }
  if (node.kind === 'array') {
    return (
      <li className={styles.leaf}>
        <span className={styles.key}>
          <TelemetryText text={displayKey(node.key)} />
        </span>
        <span className={styles.value} data-type="array">
          <LongText text={valueText(node.value)} />
        </span>
        <span className={styles.note} title="Values inside arrays are not searchable">
          not searchable
        </span>
      </li>
    );
  }
  return (
    <li className={styles.leaf}>
      <span className={styles.key} title={markBidiControls(displayPointer(node.pointer))}>
        <TelemetryText text={displayKey(node.key)} />
      </span>
      <span className={styles.value} data-type={node.value === null ? 'null' : typeof node.value}>
        <LongText text={valueText(node.value)} />
      </span>
      {actions && <LeafMenu pointer={node.pointer} value={node.value} actions={actions} />}
    </li>
  );
}

function LeafMenu({
  pointer,
  value,
  actions,
}: {
  pointer: string;
  value: unknown;
  actions: AttributeActions;
}) {
  const keep = filterForValue(pointer, value, 'eq');
  const exclude = filterForValue(pointer, value, 'ne');
  const keepWhy = keep.ok ? actions.filterProblem(keep.filter) : keep.problem;
  const excludeWhy = exclude.ok ? actions.filterProblem(exclude.filter) : exclude.problem;
  const why = keepWhy ?? excludeWhy;
  const shown = actions.hasColumn(pointer);
  // Not modal: a modal menu hides the page (aria-hidden) while its controls stay focusable.
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className={`${buttonClass('ghost', 'sm')} ${styles.menuButton}`}
        aria-label={`Actions for ${displayPointer(pointer)}`}
      >
        ⋯
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className={`${menu.surface} ${styles.menu}`}
          align="end"
          sideOffset={4}
        >
          <DropdownMenu.Label className={styles.menuLabel}>
            <code>
              <AttributePath pointer={pointer} />
            </code>
          </DropdownMenu.Label>
          <DropdownMenu.Item
            className={styles.menuItem}
            disabled={keepWhy !== null}
            onSelect={() => keep.ok && actions.addFilter(keep.filter)}
          >
            Filter by this value
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={styles.menuItem}
            disabled={excludeWhy !== null}
            onSelect={() => exclude.ok && actions.addFilter(exclude.filter)}
          >
            Exclude this value
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className={styles.menuItem}
            disabled={shown || actions.columnsFull}
            onSelect={() => actions.addColumn(pointer)}
          >
            {shown ? 'Shown as a column' : 'Show as a column'}
          </DropdownMenu.Item>
          {why !== null && <p className={styles.menuNote}>{why}</p>}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
