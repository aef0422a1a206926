import type { AssistantCall } from '../../api/queries/investigations';

/** The MCP tool call a query carries in its `meta` (investigation queries do), if any. */
export function assistantCallOf(meta: Record<string, unknown> | undefined): AssistantCall | null {
  const value = meta?.assistantCall;
  if (typeof value !== 'object' || value === null) return null;
  const { tool, args } = value as { tool?: unknown; args?: unknown };
  if (typeof tool !== 'string' || typeof args !== 'object' || args === null) return null;
  return { tool, args: args as AssistantCall['args'] };
}

/** `get_issue {"issue_id":"…"}`: the tool's name and its arguments as JSON, as MCP sends them. */
export const formatAssistantCall = (call: AssistantCall): string =>
  `${call.tool} ${JSON.stringify(call.args)}`;
