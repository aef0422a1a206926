import { describe, expect, it } from 'vitest';
import { mcpClientExamples, TOKEN_PLACEHOLDER } from './mcp-client-config';

const ORIGIN = 'https://lookout.example.com';
const byId = (token: string) =>
  Object.fromEntries(mcpClientExamples(ORIGIN, token).map((e) => [e.id, e.text]));

describe('MCP client configuration', () => {
  it('adds the server to Claude Code over HTTP with the bearer header', () => {
    expect(byId('lk_tc_abc')['claude-code']).toBe(
      'claude mcp add --transport http lookout https://lookout.example.com/mcp \\\n' +
        '  --header "Authorization: Bearer lk_tc_abc"',
    );
  });

  it('gives Cursor and VS Code valid JSON with the url and the Authorization header', () => {
    const all = byId('lk_tc_abc');
    const server = { url: `${ORIGIN}/mcp`, headers: { Authorization: 'Bearer lk_tc_abc' } };
    expect(JSON.parse(all.cursor ?? '')).toEqual({ mcpServers: { lookout: server } });
    expect(JSON.parse(all.vscode ?? '')).toEqual({
      servers: { lookout: { type: 'http', ...server } },
    });
  });

  it('bridges Claude Desktop (local servers only) with mcp-remote', () => {
    const config = JSON.parse(byId('lk_tc_abc')['claude-desktop'] ?? '') as {
      mcpServers: { lookout: { command: string; args: string[]; env: Record<string, string> } };
    };
    expect(config.mcpServers.lookout.args).toContain(`${ORIGIN}/mcp`);
    expect(config.mcpServers.lookout.env.LOOKOUT_AUTH).toBe('Bearer lk_tc_abc');
  });

  it('shows the placeholder where the token is not known', () => {
    for (const text of Object.values(byId(TOKEN_PLACEHOLDER)))
      expect(text).toContain(`Bearer ${TOKEN_PLACEHOLDER}`);
  });
});
