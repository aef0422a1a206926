import { Link } from '@tanstack/react-router';
import type { AssistantCall } from '../../api/queries/investigations';
import { CopyButton } from '../../ui/copy-button';
import { formatAssistantCall } from './assistant-call';
import styles from './assistant-fetch-line.module.css';

/**
 * Under an investigation: how an AI assistant connected to Lookout's MCP server fetches the
 * same bundle (the tool and its arguments), so a person can hand the investigation over.
 */
export function AssistantFetchLine({ call }: { call: AssistantCall }) {
  const text = formatAssistantCall(call);
  return (
    <div className={styles.line} role="note" aria-label="For AI assistants">
      <p className={styles.text}>
        A connected assistant fetches this bundle with the MCP tool{' '}
        <code className={styles.call}>{text}</code>
        <span className={styles.link}>
          {' · '}
          <Link to="/tool-connections">Connect an assistant</Link>
        </span>
      </p>
      <CopyButton value={text} label="Copy tool call" />
    </div>
  );
}
