import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../../server/test-support/test-database';
import { startOwnService, type OwnService } from '../support/own-service';
import { expect, signInThroughForm, test } from '../support/fixtures';
import { ingestEnvelope, liveIndicator, word } from '../support/telemetry';

/**
 * Two service instances on one PostgreSQL database, as behind a load balancer: what one
 * accepts, a console on the other sees live; an instance killed mid-ingest loses nothing
 * once the client retries on the other, and stores nothing twice. Runs in `npm run test:pg`,
 * which starts a throwaway PostgreSQL and sets LOOKOUT_TEST_DATABASE_URL.
 */
test.skip(!process.env.LOOKOUT_TEST_DATABASE_URL, 'needs PostgreSQL (npm run test:pg)');

let database: TestDatabase;
let a: OwnService;
let b: OwnService;

test.beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.url ?? '' };
  // One after the other: the first seeds the demo accounts, the second finds them.
  a = await startOwnService({ env });
  b = await startOwnService({ env });
});

test.afterAll(async () => {
  await b.dispose();
  await a.dispose();
  await database.drop();
});

const logItem = (message: string) => ({
  id: randomUUID(),
  occurred_at: new Date().toISOString(),
  severity: 'error',
  message,
});

/** Every log of `service_name` in the project, read page by page through instance `baseUrl`. */
async function logIdsOf(
  request: APIRequestContext,
  baseUrl: string,
  token: string,
  projectId: string,
  service: string,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: { time: string; id: string } | null = null;
  do {
    const q = new URLSearchParams({
      project_id: projectId,
      service_name: service,
      pagination: 'cursor',
      limit: '200',
      ...(cursor ? { cursor_time: cursor.time, cursor_id: cursor.id } : {}),
    });
    const res = await request.get(`${baseUrl}/api/logs?${q.toString()}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status(), await res.text()).toBe(200);
    const page = (await res.json()) as {
      logs: { id: string }[];
      next_cursor: { time: string; id: string } | null;
    };
    ids.push(...page.logs.map((l) => l.id));
    cursor = page.next_cursor;
  } while (cursor);
  return ids;
}

test('an event ingested through one instance shows up live in a console on the other', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const creds = a.credentials();
  const project = creds.projects[0];
  if (!project) throw new Error('demo world has no project');

  await signInThroughForm(page, creds.email, creds.password, a.baseUrl);
  await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 15_000 });

  const message = `through instance B ${word()}`;
  await ingestEnvelope(
    request,
    project.ingest_key,
    { service_name: 'two-instances', logs: [logItem(message)] },
    b.baseUrl,
  );

  await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live, 1 new');
  await liveIndicator(page).click();
  await expect(
    page.getByRole('dialog', { name: 'Latest live events' }).getByText(message, { exact: true }),
  ).toBeVisible();
});

test('an instance killed mid-ingest: the retry on the other stores every event exactly once', async ({
  request,
}) => {
  test.setTimeout(180_000);
  const creds = a.credentials();
  const project = creds.projects[0];
  if (!project) throw new Error('demo world has no project');
  const service = `kill-mid-ingest-${word()}`;
  const logs = Array.from({ length: 2_000 }, (_, i) => logItem(`batch item ${String(i)}`));
  const body = { release: 'e2e@1.0.0', environment: 'e2e', service_name: service, logs };
  const send = (baseUrl: string) =>
    fetch(`${baseUrl}/api/telemetry/ingest`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${project.ingest_key}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });

  // The batch is on its way to B when B dies: it may or may not have been committed.
  const inFlight = send(b.baseUrl).then(
    (res) => res.status,
    () => 'connection lost' as const,
  );
  await new Promise((r) => setTimeout(r, 40));
  await b.kill();
  const first = await inFlight;

  // The client retries the same batch (same ids) on A.
  const retry = await send(a.baseUrl);
  expect(retry.status).toBe(200);
  const counts = (await retry.json()) as { logs: number; already_accepted: number };
  expect(counts.logs + counts.already_accepted).toBe(2_000);
  if (first === 200) expect(counts.already_accepted).toBe(2_000);

  const ids = await logIdsOf(request, a.baseUrl, creds.account_token, project.id, service);
  expect(ids).toHaveLength(2_000);
  expect(new Set(ids)).toEqual(new Set(logs.map((l) => l.id)));

  // B comes back and agrees: the same rows, once each.
  await b.start();
  const idsOnB = await logIdsOf(request, b.baseUrl, creds.account_token, project.id, service);
  expect(idsOnB.sort()).toEqual(ids.sort());
});
