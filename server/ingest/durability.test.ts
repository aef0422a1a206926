import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hashToken, newId, newToken } from '../domain/secrets';
import { openSqliteStore } from '../store/sqlite/sqlite-store';
import { NATIVE, idCounts, logItem, nativeBody, readDb } from '../test-support/telemetry';

/**
 * "Nothing acknowledged is lost": the real service in a process of its own is killed with
 * SIGKILL while batches stream in, restarted on the same data directory, and every batch
 * without a 200 is sent again with its original ids. Then every item is stored exactly once,
 * and the counts of all 200 answers add up to what is stored.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BATCHES = 40;
const PER_BATCH = 200;
const ACKS_BEFORE_KILL = 16;

type Counts = { logs: number; already_accepted: number };
type Service = { child: ChildProcess; baseUrl: string; exited: Promise<NodeJS.Signals | null> };

/** An account, organization, project and ingest key, written before the service starts. */
async function provision(dir: string): Promise<{ projectId: string; key: string }> {
  const store = openSqliteStore(dir);
  try {
    const now = Date.now();
    const accountId = newId();
    const organizationId = newId();
    const projectId = newId();
    await store.accounts.create({
      id: accountId,
      email: 'durability@test',
      name: null,
      passwordHash: 'scrypt$unusable',
      createdAt: now,
      revokedBefore: null,
    });
    await store.accounts.createOrganization({
      id: organizationId,
      slug: 'durability',
      name: 'Durability',
      createdAt: now,
    });
    await store.accounts.addMember({ organizationId, accountId, role: 'owner' });
    await store.projects.create({
      id: projectId,
      organizationId,
      slug: 'durability',
      name: 'Durability',
      createdAt: now,
    });
    const key = newToken('ingest');
    await store.projects.createIngestKey({
      id: newId(),
      projectId,
      name: 'durability',
      keyHash: hashToken(key),
      keyPrefix: key.slice(0, 12),
      createdAt: now,
      expiresAt: null,
      revokedAt: null,
    });
    return { projectId, key };
  } finally {
    await store.close();
  }
}

/**
 * `node --import tsx server/main.ts`, one process: the `tsx` command would run the service in a
 * child of its own, which a SIGKILL of the command leaves running.
 */
function startService(dir: string): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOOKOUT_DATA_DIR: dir,
      LOOKOUT_STATIC_DIR: '/nonexistent',
      LOOKOUT_LOG_LEVEL: 'error',
      LOOKOUT_INGEST_RATE_PER_SECOND: '100000',
      LOOKOUT_INGEST_RATE_BURST: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`service did not start: ${err}`)), 15_000);
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /Lookout is running at http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, baseUrl: `http://127.0.0.1:${port}`, exited });
      }
    });
    child.once('exit', () => reject(new Error(`service exited before it started: ${err}`)));
  });
}

async function send(baseUrl: string, key: string, body: unknown): Promise<Counts | null> {
  try {
    const res = await fetch(`${baseUrl}${NATIVE}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${text}`);
    return JSON.parse(text) as Counts;
  } catch (e) {
    // The connection died with the service: the outcome is unknown, not a failure.
    if (e instanceof TypeError) return null;
    throw e;
  }
}

describe('durability', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-durability-'));
  const running: Service[] = [];
  afterAll(async () => {
    for (const s of running) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGKILL');
        await s.exited;
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a SIGKILL mid-stream loses nothing acknowledged; re-sending the rest stores each item once', async () => {
    const { projectId, key } = await provision(dir);
    const batches = Array.from({ length: BATCHES }, (_, b) =>
      nativeBody({
        logs: Array.from({ length: PER_BATCH }, (_, i) =>
          logItem({ id: randomUUID(), message: `batch ${b} item ${i}`, attributes: { b, i } }),
        ),
      }),
    );
    const allIds = batches.flatMap((b) => (b.logs ?? []).map((l) => l.id));

    // Two senders stream the batches until enough are acknowledged.
    const first = await startService(dir);
    running.push(first);
    const acked = new Map<number, Counts>();
    let next = 0;
    const sender = async () => {
      while (next < BATCHES && acked.size < ACKS_BEFORE_KILL) {
        const index = next++;
        const counts = await send(first.baseUrl, key, batches[index]);
        if (!counts) throw new Error(`batch ${index} failed while the service was up`);
        acked.set(index, counts);
      }
    };
    await Promise.all([sender(), sender()]);

    // Then two more at once, and SIGKILL as soon as the first of them is committed: its answer
    // counts as lost (a client that timed out), the other one's outcome is whatever the kill
    // left. Both paths of a retry, "stored but not acknowledged" and "not stored", are taken.
    const lost = next++;
    const racing = next++;
    const lostAnswer = send(first.baseUrl, key, batches[lost]);
    const racingAnswer = send(first.baseUrl, key, batches[racing]);
    const lastOfLost = batches[lost]?.logs?.at(-1)?.id ?? '';
    const deadline = Date.now() + 5_000;
    while (idCounts(dir, 'logs', projectId, [lastOfLost])[0] !== 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1));
    }
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await lostAnswer;
    const racingCounts = await racingAnswer;
    if (racingCounts) acked.set(racing, racingCounts);
    expect(idCounts(dir, 'logs', projectId, [lastOfLost])).toEqual([1]);

    // Every item of every acknowledged batch survived the kill.
    const afterKill = new Set(
      readDb(dir, (db) =>
        (
          db.prepare('SELECT id FROM logs WHERE project_id = ?').all(projectId) as { id: string }[]
        ).map((r) => r.id),
      ),
    );
    for (const index of acked.keys()) {
      const missing = (batches[index]?.logs ?? []).filter((l) => !afterKill.has(l.id));
      expect(missing, `batch ${index}`).toEqual([]);
    }

    // Restart on the same data and send again every batch without a 200, with its ids.
    const second = await startService(dir);
    running.push(second);
    const resent = new Map<number, Counts>();
    for (let index = 0; index < BATCHES; index++) {
      if (acked.has(index)) continue;
      const counts = await send(second.baseUrl, key, batches[index]);
      expect(counts, `batch ${index}`).not.toBeNull();
      if (counts) resent.set(index, counts);
    }
    second.child.kill('SIGTERM');
    await second.exited;

    for (const [index, c] of acked) {
      expect(c, `batch ${index}`).toMatchObject({ logs: PER_BATCH, already_accepted: 0 });
    }
    for (const [index, c] of resent) {
      // A batch is all or nothing: stored in full before the kill (its 200 lost) or not at all.
      expect([0, PER_BATCH], `batch ${index}`).toContain(c.logs);
      expect(c.logs + c.already_accepted, `batch ${index}`).toBe(PER_BATCH);
    }
    // One final answer per batch; together they account for every item exactly once. Batches
    // stored before the kill whose 200 never arrived come back as already_accepted.
    const answered = [...acked.values(), ...resent.values()];
    expect(answered).toHaveLength(BATCHES);
    expect(answered.reduce((n, c) => n + c.logs + c.already_accepted, 0)).toBe(BATCHES * PER_BATCH);
    const committedUnacked = [...resent.values()].filter((c) => c.logs === 0).length;
    expect(resent.get(lost)).toMatchObject({ logs: 0, already_accepted: PER_BATCH });
    expect(answered.reduce((n, c) => n + c.already_accepted, 0)).toBe(committedUnacked * PER_BATCH);
    expect(answered.reduce((n, c) => n + c.logs, 0)).toBe((BATCHES - committedUnacked) * PER_BATCH);

    const stored = readDb(dir, (db) => ({
      rows: db.prepare('SELECT id FROM logs WHERE project_id = ?').all(projectId) as {
        id: string;
      }[],
      usage: db
        .prepare(
          "SELECT SUM(events) AS events FROM usage_counters WHERE project_id = ? AND stream = 'logs'",
        )
        .get(projectId) as { events: number },
    }));
    expect(stored.rows).toHaveLength(BATCHES * PER_BATCH);
    expect(new Set(stored.rows.map((r) => r.id))).toEqual(new Set(allIds));
    // Usage was counted once per stored item, across the crash as well.
    expect(stored.usage.events).toBe(BATCHES * PER_BATCH);
  }, 30_000);
});
