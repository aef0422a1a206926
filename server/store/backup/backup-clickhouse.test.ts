import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../../test-support/service-process';
import { testsOnClickHouse } from '../../test-support/test-clickhouse';
import { logItem, NATIVE, nativeBody, T0 } from '../../test-support/telemetry';

/**
 * A backup of a data directory whose logs are in ClickHouse (the embedded engine, held by the
 * running service), taken while senders stream batches into the service (issue 27). The
 * command copies the state first, then asks the service for the telemetry snapshot; a pause
 * between the two (a test-only setting) lets batches commit in between, so the telemetry copy
 * holds rows of batches the state copy never committed. Restored into a new directory and
 * served: every log acknowledged before the backup reads back as it did, once; each batch is
 * whole or absent; usage agrees with the stored logs, and so does the attribute catalog (a
 * rollup); re-sending every batch stores exactly those the copy lacks (none answered "already
 * accepted" unless stored and counted). Without the restore's sweep of uncommitted batches,
 * the batches committed inside the pause stay as rows nobody counted.
 *
 * Every engine runs in a service process of its own (the embedded engine binds one folder
 * per process): the original, the restore command's, and the restored service.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);
const SENDERS = 3;
const LOGS = 100;
const ACKS_BEFORE_BACKUP = 20;
const PAUSE_MS = 1500;
const SINCE = '2020-01-01T00:00:00Z';

type Batch = { logs: string[]; body: unknown };
type Log = { id: string } & Record<string, unknown>;

function makeBatch(index: number): Batch {
  const logs = Array.from({ length: LOGS }, (_, i) =>
    logItem({ message: `ch backup ${index} log ${i}`, attributes: { batch: index, i } }),
  );
  return { logs: logs.map((x) => x.id), body: nativeBody({ logs }) };
}

const embedded = testsOnClickHouse() && !process.env.CLICKHOUSE_URL?.trim();

describe.skipIf(!embedded)('a backup of the ClickHouse tier taken during ingest', () => {
  const services: ServiceProcess[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const s of services) await s.dispose();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const database = `lookout_bk_${randomBytes(4).toString('hex')}`;
  const telemetryEnv = { LOOKOUT_TELEMETRY: 'clickhouse', CLICKHOUSE_DATABASE: database };

  /** `npm run service -- <args>` on a data directory, as an operator runs it. */
  function serviceCommand(dataDir: string, args: string[], env: Record<string, string> = {}) {
    const e: NodeJS.ProcessEnv = {
      ...process.env,
      ...telemetryEnv,
      ...env,
      LOOKOUT_DATA_DIR: dataDir,
      PORT: '1',
    };
    delete e.DATABASE_URL;
    return run(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
      cwd: ROOT,
      env: e,
    });
  }

  it('restores every log acknowledged before it, and nothing the state never counted', async () => {
    const svc = await startServiceProcess({ sqlite: true, env: telemetryEnv });
    services.push(svc);
    const creds = svc.credentials();
    const project = creds.projects[0];
    if (!project) throw new Error('no demo project');
    const send = (baseUrl: string, batch: Batch) =>
      fetch(`${baseUrl}${NATIVE}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${project.ingest_key}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(batch.body),
      });
    const read = (baseUrl: string, url: string) =>
      fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${creds.account_token}` } });
    /** Every log of the project, page by page (an id twice would show twice). */
    const allLogs = async (baseUrl: string): Promise<Log[]> => {
      const logs: Log[] = [];
      const first = `/api/logs?project_id=${project.id}&since=${SINCE}&pagination=cursor&limit=1000`;
      let page = first;
      for (;;) {
        const res = await read(baseUrl, page);
        expect(res.status).toBe(200);
        const body = (await res.json()) as {
          logs: Log[];
          next_cursor: { time: string; id: string } | null;
        };
        logs.push(...body.logs);
        if (!body.next_cursor) return logs;
        page = `${first}&cursor_time=${encodeURIComponent(body.next_cursor.time)}&cursor_id=${body.next_cursor.id}`;
      }
    };

    const batches: Batch[] = [];
    const acked = new Set<number>();
    let sending = true;
    let reached: () => void = () => undefined;
    const enough = new Promise<void>((resolve) => (reached = resolve));
    const sender = async () => {
      while (sending) {
        const index = batches.length;
        const batch = makeBatch(index);
        batches.push(batch);
        const res = await send(svc.baseUrl, batch);
        expect(res.status, await res.text()).toBe(200);
        acked.add(index);
        if (acked.size >= ACKS_BEFORE_BACKUP) reached();
      }
    };
    const senders = Array.from({ length: SENDERS }, () => sender());

    await enough;
    const ackedBeforeBackup = [...acked];
    const backupDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-chbackup-')), 'b');
    dirs.push(path.dirname(backupDir));
    const backup = await serviceCommand(svc.dataDir, ['backup', backupDir], {
      LOOKOUT_BACKUP_TELEMETRY_PAUSE_MS: String(PAUSE_MS),
    });
    const ackedDuringBackup = acked.size - ackedBeforeBackup.length;
    sending = false;
    await Promise.all(senders);
    const original = new Map((await allLogs(svc.baseUrl)).map((l) => [l.id, l]));
    await svc.stop();
    expect(backup.stdout).toContain('Backed up');
    expect(backup.stdout).toMatch(/clickhouse\/ \(\d+ part files/);
    expect(ackedDuringBackup).toBeGreaterThan(0);
    // The service's snapshot links are gone once copied.
    const shadow = path.join(svc.dataDir, 'clickhouse', 'shadow');
    expect(fs.readdirSync(shadow).filter((n) => n.startsWith('lookout_backup_'))).toEqual([]);

    const restoredDir = path.join(path.dirname(backupDir), 'restored');
    const restore = await serviceCommand(restoredDir, ['restore', backupDir]);
    expect(restore.stdout).toContain('Restored the backup');
    // Batches committed between the state copy and the snapshot were in the telemetry copy.
    const swept = /removed (\d+) batches committed after the state copy/.exec(restore.stdout);
    expect(Number(swept?.[1])).toBeGreaterThan(0);

    const restored = await startServiceProcess({
      dataDir: restoredDir,
      sqlite: true,
      env: telemetryEnv,
    });
    services.push(restored);
    const checkAgreement = async (expectWhole: (index: number) => boolean) => {
      const logs = await allLogs(restored.baseUrl);
      const served = new Map(logs.map((l) => [l.id, l]));
      expect(served.size, 'a log served twice').toBe(logs.length);
      let stored = 0;
      const wholeBatches: number[] = [];
      for (const [index, batch] of batches.entries()) {
        const present = batch.logs.filter((id) => served.has(id)).length;
        expect([0, LOGS], `batch ${index}: ${present} of ${LOGS}`).toContain(present);
        if (expectWhole(index)) expect(present, `batch ${index}`).toBe(LOGS);
        if (present === LOGS) wholeBatches.push(index);
        stored += present;
      }
      expect(served.size).toBe(stored);
      // State (usage counted per stored log) agrees with telemetry (the stored logs).
      const usage = (await (
        await read(restored.baseUrl, '/api/account/usage?response_version=2')
      ).json()) as { by_project: { project_id: string; events: number }[] };
      expect(usage.by_project.find((p) => p.project_id === project.id)?.events).toBe(stored);
      // The catalog (a rollup of the logs) counts the stored logs, no more.
      const res = await read(
        restored.baseUrl,
        `/api/logs/attributes?project_id=${project.id}&since=${T0}`,
      );
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const catalog = JSON.parse(text) as {
        attributes: { path: string; observed_count: number }[];
      };
      expect(catalog.attributes.find((a) => a.path === '/batch')?.observed_count ?? 0).toBe(stored);
      return { served, wholeBatches };
    };

    const before = await checkAgreement((index) => ackedBeforeBackup.includes(index));
    // Logs read the same as from the service the backup was taken of.
    for (const [id, log] of before.served) expect(log).toEqual(original.get(id));

    // Re-sending every batch stores exactly those the copy lacks.
    for (const [index, batch] of batches.entries()) {
      const res = await send(restored.baseUrl, batch);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { logs: number; already_accepted: number };
      const had = before.wholeBatches.includes(index);
      expect(body, `batch ${index}`).toMatchObject(
        had ? { logs: 0, already_accepted: LOGS } : { logs: LOGS, already_accepted: 0 },
      );
    }
    const after = await checkAgreement(() => true);
    expect(after.served.size).toBe(batches.length * LOGS);
  }, 180_000);
});
