import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { APIRequestContext } from '@playwright/test';
import { DIALOG, expectNoSeriousViolations } from '../support/axe';
import type { DemoCredentials } from '../support/demo';
import { expect, test } from '../support/fixtures';

/**
 * An engineer connects an AI assistant: creates a tool connection in the console, the
 * assistant's MCP client (the official SDK's, in the test process) investigates the checkout
 * regression with it, the console shows the connection used, and a revoke cuts the assistant off.
 */

const BAD_RELEASE = 'checkout-api@2.14.0';

function checkoutProject(demo: DemoCredentials) {
  const project = demo.projects.find((p) => p.name === 'Checkout API');
  if (!project) throw new Error('the demo world has no Checkout API project');
  return project;
}

async function connect(origin: string, token: string): Promise<Client> {
  const client = new Client({ name: 'e2e-assistant', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

test('connect an assistant, let it investigate, see it used, revoke it', async ({
  signedInPage: page,
  demo,
}) => {
  const checkout = checkoutProject(demo);
  const name = `Claude in my editor ${Date.now()}`;
  await page.goto('/tool-connections');

  // Before any token: each client's configuration, with <token> in its place.
  const assistant = page.getByRole('region', { name: 'Connect an AI assistant' });
  const origin = new URL(page.url()).origin;
  await expect(assistant.getByLabel('Run in a terminal')).toContainText(
    `claude mcp add --transport http lookout ${origin}/mcp`,
  );
  await expect(assistant.getByLabel('Run in a terminal')).toContainText('Bearer <token>');
  await assistant.getByRole('radio', { name: 'Cursor' }).click();
  await expect(assistant.getByLabel('~/.cursor/mcp.json')).toContainText(`"url": "${origin}/mcp"`);
  await page.screenshot({ path: 'test-results/tool-connections-assistant.png', fullPage: true });

  await page.getByRole('button', { name: 'New connection' }).first().click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Name').fill(name);
  await form.getByRole('checkbox', { name: checkout.name }).check();
  await form.getByRole('button', { name: 'Create connection' }).click();

  // Shown once, with the assistants' configuration filled in.
  const reveal = page.getByRole('dialog', { name: 'Tool connection created' });
  const token = (await reveal.getByLabel('Token').innerText()).trim();
  expect(token).toMatch(/^lk_tc_/);
  await reveal.getByRole('radio', { name: 'Claude Code' }).click();
  await expect(reveal.getByLabel('Run in a terminal')).toContainText(
    `--header "Authorization: Bearer ${token}"`,
  );
  await expectNoSeriousViolations(page, 'tool connection token dialog with MCP clients', DIALOG);
  await page.screenshot({ path: 'test-results/tool-connections-reveal-mcp.png' });
  await reveal.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('cell').nth(2)).toHaveText('Never');

  // The assistant investigates the checkout regression.
  const client = await connect(origin, token);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('find_issues');
  const found = (await client.callTool({
    name: 'find_issues',
    arguments: { project_id: checkout.id, release: BAD_RELEASE },
  })) as CallToolResult;
  expect(found.isError).toBeFalsy();
  const issues = (found.structuredContent as { issues: { title: string }[] }).issues;
  expect(issues.some((i) => i.title.includes("reading 'currency'"))).toBe(true);

  // The console shows the connection used.
  await page.reload();
  await expect(row.getByRole('cell').nth(2)).not.toHaveText('Never');

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke connection' }).click();
  await expect(row.getByText('Revoked')).toBeVisible();

  // Its open session is refused at once, and so is a new one.
  await expect(
    client.callTool({ name: 'find_issues', arguments: { project_id: checkout.id } }),
  ).rejects.toMatchObject({ code: 401, message: /this tool connection was revoked/ });
  await expect(connect(origin, token)).rejects.toThrow(/this tool connection was revoked/);
  await client.close();
});

async function badReleaseIssue(request: APIRequestContext, demo: DemoCredentials) {
  const res = await request.get('/api/telemetry/issues', {
    headers: { Authorization: `Bearer ${demo.account_token}` },
    params: { project_id: checkoutProject(demo).id, release: BAD_RELEASE, limit: '1000' },
  });
  expect(res.status()).toBe(200);
  const issue = ((await res.json()) as { id: string; title: string }[]).find((i) =>
    i.title.includes("reading 'currency'"),
  );
  if (!issue) throw new Error(`no currency TypeError in ${BAD_RELEASE}`);
  return issue.id;
}

test('an investigation panel says which MCP tool fetches the same bundle', async ({
  signedInPage: page,
  demo,
  request,
}) => {
  const issueId = await badReleaseIssue(request, demo);
  await page.goto(`/issues/${issueId}`);
  await page.getByRole('button', { name: 'Investigate' }).click();
  const sheet = page.getByRole('dialog', { name: 'Investigate issue' });
  const line = sheet.getByRole('note', { name: 'For AI assistants' });
  await expect(line).toContainText(`get_issue {"issue_id":"${issueId}","selection":"recommended"}`);
  await line.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/investigation-assistant-line.png' });

  // Another occurrence rule: the call follows the panel's choice.
  await sheet.getByRole('radio', { name: 'Latest' }).click();
  await expect(line).toContainText(`"selection":"latest"`);
  await expect(line.getByRole('link', { name: 'Connect an assistant' })).toHaveAttribute(
    'href',
    '/tool-connections',
  );
});
