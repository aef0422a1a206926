import type { CreatedToolConnection } from '../../api/queries/tool-connections';
import { formatUtcDateTime } from '../../lib/format-time';
import { Modal } from '../../ui/modal';
import { SecretReveal, type SecretExample } from '../../widgets/secret-reveal/secret-reveal';
import { mcpClientExamples } from './mcp-client-config';

/** Ways to use the token, ready to paste: a request, then the assistants' MCP configuration. */
function usageExamples(connection: CreatedToolConnection): SecretExample[] {
  const origin = window.location.origin;
  const project = connection.projects[0]?.id ?? '<project id>';
  return [
    {
      id: 'http',
      label: 'HTTP',
      caption: 'Example request',
      copyLabel: 'Copy example',
      text: [
        `curl '${origin}/api/telemetry/issues?project_id=${project}&since=24h' \\`,
        `  -H 'Authorization: Bearer ${connection.token}'`,
      ].join('\n'),
      hint: 'Any read route of the API accepts the token as a bearer, for the projects above.',
    },
    ...mcpClientExamples(origin, connection.token),
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
  return (
    <SecretReveal
      warningTitle="Copy this token now"
      warning="You will not see it again. Give it to the tool; if it is lost, revoke this connection and create a new one."
      secretLabel="Token"
      secret={connection.token}
      copyLabel="Copy token"
      facts={[
        { term: 'Name', value: connection.name },
        { term: 'Projects', value: connection.projects.map((p) => p.name ?? p.id).join(', ') },
        { term: 'Access', value: 'Read only' },
        {
          term: 'Expires',
          value: connection.expires_at ? formatUtcDateTime(connection.expires_at) : 'Never',
        },
      ]}
      examples={usageExamples(connection)}
      chooserLabel="Use it from"
      onDone={onDone}
    />
  );
}
