import { UsageExamples } from '../../widgets/secret-reveal/usage-examples';
import { mcpClientExamples, TOKEN_PLACEHOLDER } from './mcp-client-config';
import styles from './tool-connections.module.css';

/**
 * How to connect an AI assistant to Lookout's MCP server: each client's configuration with
 * `<token>` in place of the token (shown once, when a connection is created, with the same
 * configuration filled in).
 */
export function ConnectAssistantPanel() {
  const origin = window.location.origin;
  return (
    <section className={`${styles.panel} ${styles.assistant}`} aria-labelledby="connect-assistant">
      <h2 id="connect-assistant" className={styles.sectionTitle}>
        Connect an AI assistant
      </h2>
      <p className={styles.hint}>
        Lookout’s investigations are an MCP server at <code>{`${origin}/mcp`}</code>. Paste the
        configuration for your assistant and put a connection’s token in place of{' '}
        <code>{TOKEN_PLACEHOLDER}</code> (the token is shown once, when you create the connection,
        with this configuration filled in). The assistant reads only that connection’s projects;
        revoking the connection ends its sessions at once.
      </p>
      <UsageExamples
        examples={mcpClientExamples(origin, TOKEN_PLACEHOLDER)}
        chooserLabel="Assistant"
      />
    </section>
  );
}
