import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { startOwnService } from './support/own-service';
import { expect, signInThroughForm, test } from './support/fixtures';
import { ingestEnvelope, liveIndicator } from './support/telemetry';

const ingest = (
  request: APIRequestContext,
  baseUrl: string,
  ingestKey: string,
  items: { logs?: object[]; issues?: object[] },
) => ingestEnvelope(request, ingestKey, { service_name: 'live-feed-spec', ...items }, baseUrl);

const logItem = (message: string) => ({
  id: randomUUID(),
  occurred_at: new Date().toISOString(),
  severity: 'error',
  message,
});

/** The number in "N new" of the indicator's accessible name (0 when none). */
async function newCount(page: Page): Promise<number> {
  const name = (await liveIndicator(page).getAttribute('aria-label')) ?? '';
  return Number(/, (\d+) new$/.exec(name)?.[1] ?? 0);
}

test('ingested events show up in the Live indicator as they arrive', async ({
  signedInPage: page,
  demo,
  request,
  baseURL,
}) => {
  const project = demo.projects[0];
  if (!project || !baseURL) throw new Error('demo world has no project');
  await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 15_000 });

  const message = `e2e live log ${randomUUID()}`;
  const title = `E2E live issue ${randomUUID()}`;
  await ingest(request, baseURL, project.ingest_key, {
    logs: [logItem(message)],
    issues: [
      {
        id: randomUUID(),
        occurred_at: new Date().toISOString(),
        severity: 'error',
        title,
        message: 'thrown by the live feed spec',
        exception: { type: 'E2EError', value: title },
      },
    ],
  });

  // Other specs may ingest at the same time: at least these two are counted.
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Live, \d+ new$/);
  await expect.poll(() => newCount(page)).toBeGreaterThanOrEqual(2);

  await liveIndicator(page).click();
  const panel = page.getByRole('dialog', { name: 'Latest live events' });
  await expect(panel.getByText(message, { exact: true })).toBeVisible();
  await expect(panel.getByText(title, { exact: true })).toBeVisible();
  await expect(panel.getByText(project.name).first()).toBeVisible();
  // Opening the list marks them seen.
  await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

test('after the service restarts, the console reconnects by itself', async ({ page, request }) => {
  test.setTimeout(180_000);
  const service = await startOwnService();
  try {
    const creds = service.credentials();
    const project = creds.projects[0];
    if (!project) throw new Error('demo world has no project');
    const socketsOpened: string[] = [];
    page.on('websocket', (ws) => socketsOpened.push(ws.url()));

    await signInThroughForm(page, creds.email, creds.password, service.baseUrl);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 15_000 });
    // A reload would lose this: it proves the console came back without one.
    await page.evaluate(() => {
      document.documentElement.dataset.liveFeedSpec = 'same page';
    });

    await service.kill();
    await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Reconnecting/, {
      timeout: 15_000,
    });

    await service.start();
    // The backoff is capped at 30 s (full jitter), so the next attempt comes within that.
    await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.liveFeedSpec)).toBe(
      'same page',
    );
    // Every connection used its own ticket, and none carried a bearer.
    expect(socketsOpened.length).toBeGreaterThanOrEqual(2);
    const tickets = socketsOpened.map((url) => new URL(url).searchParams.get('ticket'));
    expect(new Set(tickets).size).toBe(tickets.length);
    for (const url of socketsOpened) expect(url).not.toMatch(/Bearer|lk_pat_|access/i);

    const message = `e2e after restart ${randomUUID()}`;
    await ingest(request, service.baseUrl, project.ingest_key, { logs: [logItem(message)] });
    await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live, 1 new');
    await liveIndicator(page).click();
    await expect(
      page.getByRole('dialog', { name: 'Latest live events' }).getByText(message),
    ).toBeVisible();
  } finally {
    await service.dispose();
  }
});

test('signing out everywhere from another client ends the feed and leads to sign-in', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // Its own service: logout-all would end the shared service's sign-ins of other specs.
  const service = await startOwnService();
  try {
    const creds = service.credentials();
    await signInThroughForm(page, creds.email, creds.password, service.baseUrl);
    await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 15_000 });

    const login = await request.post(`${service.baseUrl}/api/auth/login`, {
      data: { email: creds.email, password: creds.password },
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const revoked = await request.post(`${service.baseUrl}/api/auth/logout-all`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(revoked.status()).toBe(200);

    // Close code 4001: no reconnect; the console finds the sign-in ended and says so.
    await expect(page.getByRole('heading', { name: 'Sign in to Lookout' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByText('Your session has ended. Sign in again.')).toBeVisible();
  } finally {
    await service.dispose();
  }
});

test('a connection that goes silent is noticed: Reconnecting, then Live again with a re-read', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // Its own service with a short heartbeat, so the console's silence window is short too.
  const service = await startOwnService({ env: { LOOKOUT_FEED_HEARTBEAT_SECONDS: '1' } });
  try {
    const creds = service.credentials();
    // Every live connection passes through here; the ones open when the test freezes them
    // stop passing anything on (as behind a proxy that dropped them without a word).
    let connections = 0;
    let frozenUpTo = 0;
    const heard: string[] = [];
    await page.routeWebSocket(/\/api\/feed\/live/, (ws) => {
      const n = ++connections;
      const server = ws.connectToServer();
      server.onMessage((m) => {
        heard.push(`${n}:${String(m)}`);
        if (n > frozenUpTo) ws.send(m);
      });
      ws.onMessage((m) => {
        if (n > frozenUpTo) server.send(m);
      });
    });
    // The reconnect's ticket waits until the test has seen the console say it reconnects.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/feed/ticket', async (route) => {
      if (frozenUpTo > 0) await released;
      await route.continue();
    });

    await signInThroughForm(page, creds.email, creds.password, service.baseUrl);
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
    await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 15_000 });

    // Once the page has heard the service's interval (1 s), its silence window is short.
    await expect.poll(() => heard.some((m) => m.includes('"heartbeat"'))).toBe(true);
    frozenUpTo = connections;
    await expect(liveIndicator(page)).toHaveAccessibleName(/^Live feed: Reconnecting/, {
      timeout: 15_000,
    });
    // The feed does not replay: once back, the page's list is read again.
    const reread = page.waitForRequest(
      (r) => r.method() === 'GET' && new URL(r.url()).pathname === '/api/projects',
      { timeout: 30_000 },
    );
    release();
    await expect(liveIndicator(page)).toHaveAccessibleName('Live feed: Live', { timeout: 30_000 });
    await reread;
    expect(connections).toBe(frozenUpTo + 1);
  } finally {
    await service.dispose();
  }
});
