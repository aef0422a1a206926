import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { newTicket, openFeed } from './test-support/live-feed';
import { startService, type RunningService } from './test-support/start-service';

/** A GET with a connection of its own: the status and body, or the connection error's code. */
function get(
  baseUrl: string,
  path: string,
  agent: http.Agent | false = false,
): Promise<{ status: number; body: string } | string> {
  return new Promise((resolve) => {
    const req = http.get(`${baseUrl}${path}`, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

describe('stopping the service (SIGTERM, SIGINT)', () => {
  let svc: RunningService<true> | null = null;
  afterEach(async () => {
    await svc?.close();
    svc = null;
  });

  it('finishes a request under way, refuses new connections and closes live ones with 1001', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    svc = await startService({
      demo: true,
      extend: (app) =>
        app.get('/test/slow', async (c) => {
          entered();
          await released;
          return c.json({ finished: true });
        }),
    });
    const running = svc;
    const feed = await openFeed(
      running.baseUrl,
      await newTicket(running.baseUrl, running.creds.account_token),
    );
    // Kept alive, as a browser's: its answer closes the connection, so stopping need not wait.
    const keepAlive = new http.Agent({ keepAlive: true });
    const slow = get(running.baseUrl, '/test/slow', keepAlive);
    await inHandler;

    const stopped = running.shutdown(10_000);
    expect(await feed.closed).toMatchObject({ code: 1001 });
    expect(await get(running.baseUrl, '/healthz')).toBe('ECONNREFUSED');
    release();
    expect(await slow).toEqual({ status: 200, body: '{"finished":true}' });
    await stopped;
    keepAlive.destroy();
  });

  it('a request that outlasts the grace period is cut, and stopping still ends', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    svc = await startService({
      demo: true,
      extend: (app) =>
        app.get('/test/stuck', async (c) => {
          entered();
          await new Promise(() => undefined);
          return c.json({});
        }),
    });
    const stuck = get(svc.baseUrl, '/test/stuck');
    await inHandler;
    await svc.shutdown(50);
    expect(await stuck).toBe('ECONNRESET');
  });
});
