import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../../test-support/service-process';
import { actionItem, idCounts, logItem, NATIVE, nativeBody } from '../../test-support/telemetry';

/**
 * A backup taken while the service ingests (issue 27): senders stream batches through the
 * real ingest route into the service in its own process, and `npm run service -- backup`
 * runs beside them in another. Restored into a new directory and served, the copy holds
 * every item acknowledged before the backup began, readable through the read routes; every
 * batch is there whole or not at all; and the usage counters (state) agree with the stored
 * items (telemetry). A long read holds the WAL's frames back from the main file during the
 * run, as a report or export would, so a plain copy of the database file misses acknowledged
 * items and fails this.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);
const SENDERS = 3;
// Enough volume that the service checkpoints its WAL while a copy runs, as in production.
const LOGS = 200;
const ACTIONS = 5;
const ACKS_BEFORE_BACKUP = 30;
// Senders stop here even if the backup is still running, so a slow machine does not turn
// a long backup into ever more data to restore and count.
const MAX_BATCHES = 90;
const PACE_MS = 200;
const PADDING = 'x'.repeat(400);

type Batch = { logs: string[]; actions: string[]; body: unknown };

function makeBatch(index: number): Batch {
  const logs = Array.from({ length: LOGS }, (_, i) =>
    logItem({ message: `backup ${index} log ${i} ${PADDING}`, attributes: { batch: index, i } }),
  );
  const actions = Array.from({ length: ACTIONS }, (_, i) =>
    actionItem({ session_id: `s-${index}-${i}` }),
  );
  return {
    logs: logs.map((x) => x.id),
    actions: actions.map((x) => x.id),
    body: nativeBody({ logs, actions }),
  };
}

/** `npm run service -- <args>` on a data directory, as an operator runs it. */
function serviceCommand(dataDir: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, LOOKOUT_DATA_DIR: dataDir, PORT: '1' };
  delete env.DATABASE_URL;
  return run(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    cwd: ROOT,
    env,
  });
}

describe('a backup taken during ingest', () => {
  const services: ServiceProcess[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const s of services) await s.dispose();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('restores every item acknowledged before it began, and no half batch', async () => {
    const svc = await startServiceProcess({ sqlite: true });
    services.push(svc);
    const creds = svc.credentials();
    const project = creds.projects[0];
    if (!project) throw new Error('no demo project');

    // A read transaction of its own keeps the checkpointer from moving frames past it.
    const reader = new Database(path.join(svc.dataDir, 'lookout.sqlite'), { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM usage_counters').get();

    const batches: Batch[] = [];
    const acked = new Set<number>();
    let sending = true;
    let reached: () => void = () => undefined;
    const enough = new Promise<void>((resolve) => (reached = resolve));
    const sender = async () => {
      while (sending && batches.length < MAX_BATCHES) {
        const index = batches.length;
        const batch = makeBatch(index);
        batches.push(batch);
        const res = await fetch(`${svc.baseUrl}${NATIVE}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${project.ingest_key}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(batch.body),
        });
        expect(res.status, await res.text()).toBe(200);
        acked.add(index);
        if (acked.size >= ACKS_BEFORE_BACKUP) {
          reached();
          // Paced from here, so the batches left last through the copy.
          await new Promise((r) => setTimeout(r, PACE_MS));
        }
      }
    };
    const senders = Array.from({ length: SENDERS }, () => sender());

    await enough;
    const ackedBeforeBackup = [...acked];
    const backupDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-backup-')), 'b');
    dirs.push(path.dirname(backupDir));
    const backup = await serviceCommand(svc.dataDir, ['backup', backupDir]);
    const ackedDuringBackup = acked.size - ackedBeforeBackup.length;
    reader.exec('COMMIT');
    reader.close();
    sending = false;
    await Promise.all(senders);
    await svc.stop();
    expect(backup.stdout).toContain('Backed up');
    // Ingest went on beside the backup (else this would not test an online copy).
    expect(ackedDuringBackup).toBeGreaterThan(0);

    const restoredDir = path.join(path.dirname(backupDir), 'restored');
    const restore = await serviceCommand(restoredDir, ['restore', backupDir]);
    expect(restore.stdout).toContain('Restored the backup');
    const restored = await startServiceProcess({ dataDir: restoredDir, sqlite: true });
    services.push(restored);
    const read = (url: string) =>
      fetch(`${restored.baseUrl}${url}`, {
        headers: { authorization: `Bearer ${creds.account_token}` },
      });

    // Every log acknowledged before the backup began reads back through the service.
    const served = new Set<string>();
    let page = `/api/logs?project_id=${project.id}&since=2020-01-01T00:00:00Z&pagination=cursor&limit=1000`;
    for (;;) {
      const res = await read(page);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        logs: { id: string }[];
        next_cursor: { time: string; id: string } | null;
      };
      for (const log of body.logs) served.add(log.id);
      if (!body.next_cursor) break;
      page = `/api/logs?project_id=${project.id}&since=2020-01-01T00:00:00Z&pagination=cursor&limit=1000&cursor_time=${encodeURIComponent(body.next_cursor.time)}&cursor_id=${body.next_cursor.id}`;
    }
    const missing = ackedBeforeBackup.flatMap((index) =>
      (batches[index]?.logs ?? []).filter((id) => !served.has(id)).map((id) => `${index}/${id}`),
    );
    expect(missing).toEqual([]);

    const usage = (await (await read('/api/account/usage?response_version=2')).json()) as {
      by_project: { project_id: string; events: number }[];
    };

    // Restoring over the directory the restored service now runs on is refused, in words.
    const over = await serviceCommand(restoredDir, ['restore', backupDir, '--force']).then(
      () => null,
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(over?.code).toBe(2);
    expect(over?.stderr).toContain('Stop every service that uses this LOOKOUT_DATA_DIR');

    // The embedded engine's files belong to the running service: counted once it stopped.
    await restored.stop();
    // Each batch whole or not at all; the acknowledged ones whole.
    // Counted in two reads: each read opens the embedded engine, which takes a while.
    const logCounts = await idCounts(
      restored,
      'logs',
      project.id,
      batches.flatMap((b) => b.logs),
    );
    const actionCounts = await idCounts(
      restored,
      'actions',
      project.id,
      batches.flatMap((b) => b.actions),
    );
    let storedItems = 0;
    let storedLogs = 0;
    for (const [index, batch] of batches.entries()) {
      const counts = [
        ...logCounts.slice(index * LOGS, (index + 1) * LOGS),
        ...actionCounts.slice(index * ACTIONS, (index + 1) * ACTIONS),
      ];
      const whole = counts.every((c) => c === 1);
      expect(whole || counts.every((c) => c === 0), `batch ${index}: ${counts.join()}`).toBe(true);
      if (ackedBeforeBackup.includes(index)) expect(whole, `batch ${index}`).toBe(true);
      if (whole) storedItems += counts.length;
      if (whole) storedLogs += batch.logs.length;
    }
    expect(served.size).toBe(storedLogs);

    // State (usage counted per stored item) agrees with telemetry (the stored items).
    expect(usage.by_project.find((p) => p.project_id === project.id)?.events).toBe(storedItems);
  }, 180_000);
});
