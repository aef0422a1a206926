import type { SecretExample } from '../../widgets/secret-reveal/usage-examples';

/** What stands for the token where it is not shown (it is shown once, when created). */
export const TOKEN_PLACEHOLDER = '<token>';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * Ready-to-paste configuration of common MCP clients for Lookout's MCP server at
 * `<origin>/mcp` (Streamable HTTP, the token as a bearer header), with the token or its
 * placeholder. Claude Desktop reads only local (stdio) servers from its file, and its custom
 * connectors take no bearer header, so it goes through the `mcp-remote` bridge.
 */
export function mcpClientExamples(origin: string, token: string): SecretExample[] {
  const url = `${origin}/mcp`;
  const bearer = `Bearer ${token}`;
  return [
    {
      id: 'claude-code',
      label: 'Claude Code',
      caption: 'Run in a terminal',
      copyLabel: 'Copy command',
      text: [
        `claude mcp add --transport http lookout ${url} \\`,
        `  --header "Authorization: ${bearer}"`,
      ].join('\n'),
      hint: 'Adds Lookout to Claude Code (add --scope user to use it in every project). Then ask, for example: “What broke in checkout this week?”',
    },
    {
      id: 'cursor',
      label: 'Cursor',
      caption: '~/.cursor/mcp.json',
      copyLabel: 'Copy configuration',
      text: json({ mcpServers: { lookout: { url, headers: { Authorization: bearer } } } }),
      hint: 'Merge into mcpServers of ~/.cursor/mcp.json (or .cursor/mcp.json in a project you do not commit).',
    },
    {
      id: 'vscode',
      label: 'VS Code',
      caption: '.vscode/mcp.json',
      copyLabel: 'Copy configuration',
      text: json({
        servers: { lookout: { type: 'http', url, headers: { Authorization: bearer } } },
      }),
      hint: 'Merge into servers of .vscode/mcp.json, or of your user MCP configuration (MCP: Open User Configuration). Keep a file holding the token out of version control.',
    },
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      caption: 'claude_desktop_config.json',
      copyLabel: 'Copy configuration',
      text: json({
        mcpServers: {
          lookout: {
            command: 'npx',
            args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${LOOKOUT_AUTH}'],
            env: { LOOKOUT_AUTH: bearer },
          },
        },
      }),
      hint: 'Claude Desktop starts local servers only: mcp-remote (run by npx, needs Node.js) connects it to Lookout. Restart Claude Desktop after saving.',
    },
  ];
}
