import { useId, type ReactNode } from 'react';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { CopyButton } from '../../ui/copy-button';
import { DialogActions } from '../../ui/modal';
import styles from './secret-reveal.module.css';
import { UsageExamples, type SecretExample } from './usage-examples';

export type { SecretExample } from './usage-examples';

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

      <UsageExamples examples={examples} chooserLabel={chooserLabel} />

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
