import { useState } from 'react';
import type { CreatedToolConnection } from '../../api/queries/tool-connections';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { CopyButton } from '../../ui/copy-button';
import { DialogActions, Modal } from '../../ui/modal';
import { SegmentedChoice } from '../../ui/segmented-choice';
import styles from './tool-connections.module.css';

/**
 * One way to use the token, ready to paste. Clients of other kinds (an assistant's MCP
 * configuration) are added to `usageExamples` as further entries.
 */
type UsageExample = { id: string; label: string; caption: string; text: string; hint: string };

function usageExamples(connection: CreatedToolConnection): UsageExample[] {
  const origin = window.location.origin;
  const project = connection.projects[0]?.id ?? '<project id>';
  return [
    {
      id: 'http',
      label: 'HTTP',
      caption: 'Example request',
      text: [
        `curl '${origin}/api/telemetry/issues?project_id=${project}&since=24h' \\`,
        `  -H 'Authorization: Bearer ${connection.token}'`,
      ].join('\n'),
      hint: 'Any read route of the API accepts the token as a bearer, for the projects above.',
    },
  ];
}

/**
 * The new connection's token, shown once: the value lives only in this dialog's state, and
 * closing the dialog drops it.
 */
export function RevealTokenDialog({
  connection,
  onClose,
}: {
  connection: CreatedToolConnection | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={connection !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Tool connection created"
      wide
      // While the token is shown, only the buttons close the dialog, never a stray click.
      onPointerDownOutside={(event) => event.preventDefault()}
    >
      {connection && <RevealToken connection={connection} onDone={onClose} />}
    </Modal>
  );
}

function RevealToken({
  connection,
  onDone,
}: {
  connection: CreatedToolConnection;
  onDone: () => void;
}) {
  const examples = usageExamples(connection);
  const [exampleId, setExampleId] = useState(examples[0]?.id ?? '');
  const example = examples.find((e) => e.id === exampleId) ?? examples[0];
  return (
    <div className={styles.reveal}>
      <Callout tone="warning" role="status" title="Copy this token now">
        You will not see it again. Give it to the tool; if it is lost, revoke this connection and
        create a new one.
      </Callout>

      <div className={styles.secretField}>
        <div className={styles.secretHead}>
          <span id="tool-token-label">Token</span>
          <CopyButton value={connection.token} label="Copy token" />
        </div>
        <code className={styles.secret} aria-labelledby="tool-token-label" tabIndex={0}>
          {connection.token}
        </code>
      </div>

      <dl className={styles.facts}>
        <dt>Name</dt>
        <dd>{connection.name}</dd>
        <dt>Projects</dt>
        <dd>{connection.projects.map((p) => p.name ?? p.id).join(', ')}</dd>
        <dt>Access</dt>
        <dd>Read only</dd>
        <dt>Expires</dt>
        <dd>{connection.expires_at ? formatUtcDateTime(connection.expires_at) : 'Never'}</dd>
      </dl>

      {examples.length > 1 && example && (
        <SegmentedChoice
          label="Use it from"
          caption="Use it from"
          value={example.id}
          options={examples.map((e) => ({ value: e.id, label: e.label }))}
          onChange={setExampleId}
        />
      )}
      {example && (
        <div className={styles.secretField}>
          <div className={styles.secretHead}>
            <span id={`tool-example-${example.id}`}>{example.caption}</span>
            <CopyButton value={example.text} label="Copy example" />
          </div>
          <pre
            className={styles.example}
            aria-labelledby={`tool-example-${example.id}`}
            tabIndex={0}
          >
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
