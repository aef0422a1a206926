import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { feedUrl, newTicket, openFeed } from '../../test-support/live-feed';
import { startService, type RunningService } from '../../test-support/start-service';

/**
 * Heartbeats (issue 27): the service pings each live connection and sends a `heartbeat`
 * message; a connection that stops answering pings is closed and its subscriber dropped.
 * A short interval comes from configuration; nothing here measures time.
 */

type Svc = RunningService<true>;
let svc: Svc | null = null;
afterEach(async () => {
  await svc?.close();
  svc = null;
});

const start = async (seconds: number) => {
  svc = await startService({ demo: true, config: { feedHeartbeatSeconds: seconds } });
  return svc;
};

/** A raw client that never answers pings, as a connection behind a dead proxy looks. */
function silentClient(url: string) {
  const ws = new WebSocket(url, { autoPong: false });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, opened, closed };
}

describe('live-feed heartbeat', () => {
  it('a connection that does not answer pings is closed and its subscriber dropped', async () => {
    const s = await start(0.05);
    const client = silentClient(
      feedUrl(s.baseUrl, await newTicket(s.baseUrl, s.creds.account_token)),
    );
    let pings = 0;
    client.ws.on('ping', () => pings++);
    await client.opened;
    await vi.waitFor(() => expect(s.deps.feed.connectionCount).toBe(1));
    // 1006: terminated without a closing handshake.
    expect(await client.closed).toBe(1006);
    expect(pings).toBeGreaterThanOrEqual(1);
    await vi.waitFor(() => expect(s.deps.feed.connectionCount).toBe(0));
  });

  it('a connection that answers stays open and hears heartbeat messages', async () => {
    const s = await start(0.05);
    const feed = await openFeed(s.baseUrl, await newTicket(s.baseUrl, s.creds.account_token));
    let heartbeats = 0;
    for (let i = 0; i < 4; i++) {
      const m = await feed.until(
        (msg) => msg.type === 'heartbeat' && feed.messages.indexOf(msg) >= heartbeats,
      );
      heartbeats = feed.messages.indexOf(m) + 1;
      expect(m.data).toEqual({ interval_seconds: 0.05 });
    }
    // Several intervals later, with pings answered: still open, still subscribed.
    expect(feed.ws.readyState).toBe(WebSocket.OPEN);
    expect(s.deps.feed.connectionCount).toBe(1);
    feed.close();
  });

  it('pings every 30 seconds by default', async () => {
    const s = await startService({ demo: true });
    svc = s;
    expect(s.deps.config.feedHeartbeatSeconds).toBe(30);
  });
});
