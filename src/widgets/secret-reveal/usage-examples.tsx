import { useId, useState, type ReactNode } from 'react';
import { CopyButton } from '../../ui/copy-button';
import { SegmentedChoice } from '../../ui/segmented-choice';
import styles from './secret-reveal.module.css';

/** One way to use a secret, ready to paste. */
export type SecretExample = {
  id: string;
  /** The chooser's label, when there are several examples. */
  label: string;
  caption: string;
  copyLabel: string;
  text: string;
  hint: ReactNode;
};

/**
 * Ways to use a secret (a request, a client's configuration), with a chooser when there are
 * several: the chosen one as text to copy, and a line on where it goes.
 */
export function UsageExamples({
  examples,
  chooserLabel,
}: {
  examples: SecretExample[];
  chooserLabel: string;
}) {
  const id = useId();
  const [exampleId, setExampleId] = useState(examples[0]?.id ?? '');
  const example = examples.find((e) => e.id === exampleId) ?? examples[0];
  if (!example) return null;
  return (
    <>
      {examples.length > 1 && (
        <SegmentedChoice
          label={chooserLabel}
          caption={chooserLabel}
          value={example.id}
          options={examples.map((e) => ({ value: e.id, label: e.label }))}
          onChange={setExampleId}
        />
      )}
      <div className={styles.secretField}>
        <div className={styles.secretHead}>
          <span id={`${id}-example`}>{example.caption}</span>
          <CopyButton value={example.text} label={example.copyLabel} />
        </div>
        <pre className={styles.example} aria-labelledby={`${id}-example`} tabIndex={0}>
          {example.text}
        </pre>
        <p className={styles.hint}>{example.hint}</p>
      </div>
    </>
  );
}
