import { randomBytes, randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * A token of letters only: numbers and hex would be masked out of a triage rule's message
 * pattern and of an issue's grouping, so a test's own records stay apart by it.
 */
export function word(length = 10): string {
  return Array.from(randomBytes(length), (b) => String.fromCharCode(97 + (b % 26))).join('');
}

/**
 * Sends one native ingest envelope with a project's ingest key through the real route (as an
 * SDK would); `envelope` overrides the defaults (`release`, `environment`, `service_name`).
 */
export async function ingestEnvelope(
  request: APIRequestContext,
  ingestKey: string,
  envelope: { logs?: object[]; issues?: object[] } & Record<string, unknown>,
  baseUrl = '',
) {
  const res = await request.post(`${baseUrl}/api/telemetry/ingest`, {
    headers: { Authorization: `Bearer ${ingestKey}` },
    data: { release: 'e2e@1.0.0', environment: 'e2e', service_name: 'e2e', ...envelope },
  });
  expect(res.status(), await res.text()).toBe(200);
}

export type IssueItem = {
  title: string;
  message?: string;
  stack_trace?: string;
  severity?: string;
  fingerprint?: string;
};

/**
 * Sends issues with a project's ingest key through the real ingest route, each its own group
 * (severity error unless given: derived priority High).
 */
export async function ingestIssues(
  request: APIRequestContext,
  ingestKey: string,
  serviceName: string,
  issues: IssueItem[],
) {
  await ingestEnvelope(request, ingestKey, {
    service_name: serviceName,
    issues: issues.map((i) => ({
      id: randomUUID(),
      occurred_at: new Date().toISOString(),
      message: i.message ?? i.title,
      fingerprint: `e2e-${word()}`,
      severity: 'error',
      ...i,
    })),
  });
}

/** The data rows of a named table (its header row has no cells). */
export const dataRowsOf = (page: Page, table: string) =>
  page
    .getByRole('table', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });

export const liveIndicator = (page: Page) => page.getByRole('button', { name: /^Live feed/ });

/**
 * Records a deployment through the real route with the account token; `body` gives the
 * project, release, environment and service (status `succeeded`, a few minutes ago, unless set).
 */
export async function recordDeployment(
  request: APIRequestContext,
  accountToken: string,
  id: string,
  body: Record<string, unknown>,
  baseUrl = '',
) {
  const res = await request.put(`${baseUrl}/api/telemetry/deployments/${id}`, {
    headers: { Authorization: `Bearer ${accountToken}` },
    data: {
      status: 'succeeded',
      started_at: new Date(Date.now() - 5 * 60_000).toISOString(),
      finished_at: new Date(Date.now() - 3 * 60_000).toISOString(),
      ...body,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}
