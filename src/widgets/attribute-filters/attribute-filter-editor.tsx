import { useId, useState, type FormEvent } from 'react';
import type { CatalogParams } from '../../api/queries/logs';
import {
  attributeFiltersProblem,
  filterFromDraft,
  OPERATORS_BY_TYPE,
  operatorLabel,
  type AttributeFilter,
  type AttributeOperator,
  type AttributeType,
  type FilterDraft,
} from '../../lib/attribute-filter';
import { displayPointer } from '../../lib/json-pointer';
import { AttributePath } from '../../ui/attribute-path';
import { Button } from '../../ui/button';
import styles from './attribute-filter-editor.module.css';
import { AttributePathPicker } from './attribute-path-picker';

const typeNames: Record<AttributeType, string> = {
  string: 'text',
  number: 'number',
  boolean: 'true/false',
};

const defaultOperator: Record<AttributeType, AttributeOperator> = {
  string: 'eq',
  number: 'eq',
  boolean: 'eq',
};

/**
 * Builds one attribute filter: a path from the catalog, then the operators its type allows
 * and the value input it needs. Anything the service would refuse is explained here, before
 * the filter is applied.
 */
export function AttributeFilterEditor({
  catalog,
  initial,
  others,
  onApply,
  onCancel,
}: {
  catalog: CatalogParams;
  /** The draft of the filter being changed; null to add one. */
  initial: FilterDraft | null;
  /** The filters kept beside this one (the whole set must fit the service's limits). */
  others: readonly AttributeFilter[];
  onApply: (filter: AttributeFilter) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<FilterDraft | null>(initial);

  if (draft === null) {
    return (
      <div className={styles.editor}>
        <p className={styles.step}>Filter by attribute</p>
        <AttributePathPicker
          catalog={catalog}
          label="Attribute path"
          onPick={(a) =>
            setDraft({
              path: a.path,
              type: a.type,
              operator: defaultOperator[a.type],
              valueText: a.type === 'boolean' ? 'true' : '',
              caseSensitive: false,
            })
          }
        />
      </div>
    );
  }
  return (
    <DraftForm
      draft={draft}
      onChange={setDraft}
      onChangePath={() => setDraft(null)}
      others={others}
      onApply={onApply}
      onCancel={onCancel}
      editing={initial !== null}
    />
  );
}

function DraftForm({
  draft,
  onChange,
  onChangePath,
  others,
  onApply,
  onCancel,
  editing,
}: {
  draft: FilterDraft;
  onChange: (draft: FilterDraft) => void;
  onChangePath: () => void;
  others: readonly AttributeFilter[];
  onApply: (filter: AttributeFilter) => void;
  onCancel: () => void;
  editing: boolean;
}) {
  const id = useId();
  const [showProblem, setShowProblem] = useState(editing);
  const check = filterFromDraft(draft);
  const setProblem = check.ok ? attributeFiltersProblem([...others, check.filter]) : null;
  const problem = check.ok ? setProblem : check.problem;
  const needsValue = draft.operator !== 'exists';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setShowProblem(true);
    if (check.ok && setProblem === null) onApply(check.filter);
  };

  return (
    <form className={styles.editor} onSubmit={submit} noValidate aria-label="Attribute filter">
      <div className={styles.pathRow}>
        <div className={styles.pathText}>
          <span className={styles.fieldLabel}>Attribute</span>
          <code className={styles.path}>
            <AttributePath pointer={draft.path} />
          </code>
          <span className={styles.type}>{typeNames[draft.type]}</span>
        </div>
        <Button size="sm" variant="ghost" onClick={onChangePath}>
          Change
        </Button>
      </div>

      <div className={styles.fields}>
        <div className={styles.field}>
          <label htmlFor={`${id}-op`} className={styles.fieldLabel}>
            Operator
          </label>
          <select
            id={`${id}-op`}
            className={styles.select}
            value={draft.operator}
            onChange={(e) => onChange({ ...draft, operator: e.target.value as AttributeOperator })}
          >
            {OPERATORS_BY_TYPE[draft.type].map((op) => (
              <option key={op} value={op}>
                {operatorLabel(op, draft.type)}
              </option>
            ))}
          </select>
        </div>

        {needsValue && (
          <div className={`${styles.field} ${styles.valueField}`}>
            <label htmlFor={`${id}-value`} className={styles.fieldLabel}>
              Value
            </label>
            {draft.type === 'boolean' ? (
              <select
                id={`${id}-value`}
                className={styles.select}
                value={draft.valueText}
                onChange={(e) => onChange({ ...draft, valueText: e.target.value })}
              >
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : (
              <input
                id={`${id}-value`}
                className={styles.input}
                value={draft.valueText}
                inputMode={draft.type === 'number' ? 'decimal' : 'text'}
                placeholder={draft.type === 'number' ? 'e.g. 500' : 'text'}
                autoComplete="off"
                spellCheck={false}
                autoFocus
                aria-invalid={showProblem && problem !== null ? true : undefined}
                aria-describedby={`${id}-problem`}
                onChange={(e) => {
                  onChange({ ...draft, valueText: e.target.value });
                  setShowProblem(true);
                }}
              />
            )}
          </div>
        )}
      </div>

      {needsValue && draft.type === 'string' && (
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={draft.caseSensitive}
            onChange={(e) => onChange({ ...draft, caseSensitive: e.target.checked })}
          />
          Match case
        </label>
      )}

      <p id={`${id}-problem`} className={styles.message} aria-live="polite">
        {showProblem && problem !== null ? (
          <span className={styles.problem}>{problem}</span>
        ) : (
          <span className={styles.hint}>{hintFor(draft)}</span>
        )}
      </p>

      <div className={styles.actions}>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" type="submit">
          {editing ? 'Update filter' : 'Apply filter'}
        </Button>
      </div>
    </form>
  );
}

function hintFor(draft: FilterDraft): string {
  if (draft.operator === 'exists') {
    return `Keeps logs that have ${displayPointer(draft.path)} with a ${typeNames[draft.type]} value.`;
  }
  if (draft.operator === 'ne') {
    return `Keeps logs that have ${displayPointer(draft.path)} with another value (logs without it are left out).`;
  }
  if (draft.type === 'string') {
    return draft.caseSensitive ? 'Compared exactly, case included.' : 'Compared ignoring case.';
  }
  if (draft.type === 'number') return 'Any number, such as 500, -3 or 0.25.';
  return 'Compared with the attribute’s true/false value.';
}
