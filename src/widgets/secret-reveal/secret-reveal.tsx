import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { CopyButton } from '../../ui/copy-button';
import { DialogActions } from '../../ui/modal';
import { SegmentedChoice } from '../../ui/segmented-choice';
import styles from './secret-reveal.module.css';

/** One way to use the secret, ready to paste. */
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
 * A new secret (an ingest key, a tool connection's token) shown once, inside its dialog: the
 * warning, the value with a copy button, what it is, and examples of using it, with a chooser
 * when there are several. The caller keeps the value in its dialog's state only.
 */
export function SecretReveal({
  warningTitle,
  warning,
  secretLabel,
  secret,
  copyLabel,
  facts,
  examples,
  chooserLabel,
  onDone,
}: {
  warningTitle: string;
  warning: ReactNode;
  secretLabel: string;
  secret: string;
  copyLabel: string;
  facts: { term: string; value: ReactNode }[];
  examples: SecretExample[];
  chooserLabel: string;
  onDone: () => void;
}) {
  const id = useId();
  const [exampleId, setExampleId] = useState(examples[0]?.id ?? '');
  const example = examples.find((e) => e.id === exampleId) ?? examples[0];
  return (
    <div className={styles.reveal}>
      <Callout tone="warning" role="status" title={warningTitle}>
        {warning}
      </Callout>

      <div className={styles.secretField}>
        <div className={styles.secretHead}>
          <span id={`${id}-secret`}>{secretLabel}</span>
          <CopyButton value={secret} label={copyLabel} />
        </div>
        <code className={styles.secret} aria-labelledby={`${id}-secret`} tabIndex={0}>
          {secret}
        </code>
      </div>

      <dl className={styles.facts}>
        {facts.map((f) => (
          <FactRow key={f.term} term={f.term} value={f.value} />
        ))}
      </dl>

      {examples.length > 1 && example && (
        <SegmentedChoice
          label={chooserLabel}
          caption={chooserLabel}
          value={example.id}
          options={examples.map((e) => ({ value: e.id, label: e.label }))}
          onChange={setExampleId}
        />
      )}
      {example && (
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
      )}

      <DialogActions>
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </DialogActions>
    </div>
  );
}

function FactRow({ term, value }: { term: string; value: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}
