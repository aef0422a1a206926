import { hash } from 'node:crypto';
import { maskVariableParts } from './fingerprint';

/**
 * What a log triage rule matches: logs of the same project with the same `source`,
 * `service_name` and message template (the message with numbers, ids, hex and quoted text
 * masked). Hashed so the indexed key column stays short whatever the message length.
 */
export function logTriageKey(source: string, serviceName: string, message: string): string {
  // The template keeps 500 characters; masking only a prefix keeps a 1 MB message cheap.
  const template = maskVariableParts(message.slice(0, 2000));
  return hash('sha256', JSON.stringify([source, serviceName, template]), 'base64url');
}
