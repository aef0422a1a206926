import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../test-support/api-client';
import { startServiceProcess, type ServiceProcess } from '../test-support/service-process';
import { testsOnClickHouse } from '../test-support/test-clickhouse';
import {
  sqliteHasTable,
  writeLegacyTelemetry,
  type LegacyLog,
  type LegacyOccurrence,
  type LegacySample,
} from '../test-support/legacy-sqlite-telemetry';

/**
 * `npm run service -- migrate` moves the telemetry a data directory of an earlier version
 * kept in SQLite into ClickHouse: a service refuses to start on it before, the move resumes
 * after a kill, and afterwards the service reads exactly the rows those versions stored, and
 * SQLite keeps none of them (issue groups keep their first and latest occurrence). Runs on the
 * embedded engine, every engine in a process of its own.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const embedded = testsOnClickHouse() && !process.env.CLICKHOUSE_URL?.trim();
const HOUR = 3_600_000;
const NOW = Date.now();

/** A UUID per kind and index (ids of the ingest routes are UUIDs). */
const uuid = (kind: number, i: number) =>
  `0000000${String(kind)}-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** 1,000 logs (every fifth an error, attributes of three types), 300 samples, 2 groups. */
function legacyRows() {
  const logs: LegacyLog[] = Array.from({ length: 1_000 }, (_, i) => ({
    id: uuid(1, i),
    occurredAt: NOW - 48 * HOUR + i * 60_000,
    severity: i % 5 === 0 ? 'error' : 'info',
    message: `request ${String(i)} served`,
    attributes: {
      'http.route': `/items/${String(i % 7)}`,
      status: 200 + (i % 3),
      cached: i % 2 === 0,
    },
  }));
  const samples: LegacySample[] = Array.from({ length: 300 }, (_, i) => ({
    eventId: uuid(2, i),
    occurredAt: NOW - 24 * HOUR + i * 60_000,
    name: i % 3 === 0 ? 'queue.depth' : 'http.latency',
    value: i,
  }));
  const occurrences = new Map<string, LegacyOccurrence[]>();
  for (const fingerprint of ['timeout', 'null-user'])
    occurrences.set(
      fingerprint,
      Array.from({ length: 6 }, (_, i) => ({
        id: uuid(fingerprint === 'timeout' ? 3 : 4, i),
        occurredAt: NOW - 12 * HOUR + i * HOUR,
        title: `${fingerprint} failed`,
      })),
    );
  return { logs, samples, occurrences };
}

describe.skipIf(!embedded)('moving SQLite telemetry into ClickHouse', () => {
  let svc: ServiceProcess | null = null;
  afterAll(async () => {
    await svc?.dispose();
  });

  const migrate = (dataDir: string, env: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', 'server/main.ts', 'migrate'], {
      cwd: ROOT,
      env: { ...process.env, LOOKOUT_DATA_DIR: dataDir, ...env },
    });

  it('refuses to serve before the move, resumes after a kill, and reads every row after', async () => {
    // A data directory with accounts and a project, then the telemetry an earlier version kept.
    svc = await startServiceProcess({ sqlite: true, env: { LOOKOUT_DEMO_SCALE: '0' } });
    const { account_token: token, projects } = svc.credentials();
    const project = projects[0]?.id ?? '';
    await svc.stop();
    const { dataDir } = svc;
    const rows = legacyRows();
    writeLegacyTelemetry(dataDir, project, rows);

    await expect(svc.start()).rejects.toThrow(/npm run service -- migrate/);

    // Killed once it reported a chunk moved: the next run resumes and moves each row once.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'migrate'], {
        cwd: ROOT,
        env: { ...process.env, LOOKOUT_DATA_DIR: dataDir, LOOKOUT_MOVE_CHUNK_ROWS: '200' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stderr.on('data', (d: Buffer) => {
        if (d.toString().includes('rows moved to ClickHouse')) child.kill('SIGKILL');
      });
      child.once('exit', (_code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error('the move ended before the kill')),
      );
    });
    const resumed = await migrate(dataDir, { LOOKOUT_MOVE_CHUNK_ROWS: '200' });
    for (const table of ['issue_occurrences', 'logs', 'metric_samples'])
      expect(resumed.stdout).toMatch(new RegExp(`${table}: (moved|already in ClickHouse)`));
    for (const table of ['logs', 'metric_samples', 'log_attributes'])
      expect(sqliteHasTable(dataDir, table), table).toBe(false);

    await svc.start();
    const get = async (path: string) => {
      const res = await call(svc?.baseUrl ?? '', 'GET', path, { token });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      return res.body;
    };
    const since = encodeURIComponent(new Date(NOW - 30 * 24 * HOUR).toISOString());
    // Every log, newest first, page by page; the errors and typed attribute filters.
    const ids: string[] = [];
    for (let cursor = ''; ;) {
      const page = (await get(
        `/api/logs?project_id=${project}&since=${since}&limit=200&pagination=cursor${cursor}`,
      )) as { logs: { id: string }[]; next_cursor: { time: string; id: string } | null };
      ids.push(...page.logs.map((l) => l.id));
      if (!page.next_cursor) break;
      cursor = `&cursor_time=${encodeURIComponent(page.next_cursor.time)}&cursor_id=${page.next_cursor.id}`;
    }
    expect(ids).toEqual(rows.logs.map((l) => l.id).reverse());
    const errors = (await get(
      `/api/logs?project_id=${project}&since=${since}&severity=error&limit=500`,
    )) as { id: string }[];
    expect(errors.map((l) => l.id)).toEqual(
      rows.logs
        .filter((l) => l.severity === 'error')
        .map((l) => l.id)
        .reverse(),
    );
    const filters = encodeURIComponent(
      JSON.stringify([
        { path: '/status', type: 'number', operator: 'gt', value: 201 },
        { path: '/cached', type: 'boolean', operator: 'eq', value: false },
      ]),
    );
    const typed = (await get(
      `/api/logs?project_id=${project}&since=${since}&limit=500&attribute_filters=${filters}`,
    )) as { id: string }[];
    expect(typed.map((l) => l.id)).toEqual(
      rows.logs
        .filter((l) => l.attributes.status === 202 && l.attributes.cached === false)
        .map((l) => l.id)
        .reverse(),
    );
    const catalog = (await get(`/api/logs/attributes?project_id=${project}&since=${since}`)) as {
      attributes: { path: string }[];
    };
    expect(catalog.attributes.map((a) => a.path).sort()).toEqual([
      '/cached',
      '/http.route',
      '/status',
    ]);

    const samples: string[] = [];
    for (let cursor = ''; ;) {
      const page = (await get(`/api/telemetry/metrics?pagination=cursor&limit=200${cursor}`)) as {
        metrics: { event_id: string }[];
        next_cursor: { time: string; id: string } | null;
      };
      samples.push(...page.metrics.map((m) => m.event_id));
      if (!page.next_cursor) break;
      cursor = `&cursor_time=${encodeURIComponent(page.next_cursor.time)}&cursor_id=${page.next_cursor.id}`;
    }
    expect(samples).toEqual(rows.samples.map((m) => m.eventId).reverse());

    const issues = (await get(`/api/telemetry/issues?limit=20`)) as {
      id: string;
      title: string;
      occurrence_count: number;
    }[];
    expect(issues.map((i) => [i.title, i.occurrence_count]).sort()).toEqual([
      ['null-user failed', 6],
      ['timeout failed', 6],
    ]);
    for (const i of issues) {
      const events = (await get(`/api/telemetry/issues/${i.id}/events?limit=20`)) as {
        id: string;
      }[];
      const fingerprint = i.title.replace(' failed', '');
      expect(events.map((e) => e.id).sort()).toEqual(
        (rows.occurrences.get(fingerprint) ?? []).map((o) => o.id).sort(),
      );
    }
    await svc.stop();

    const again = await migrate(dataDir);
    expect(again.stdout).toMatch(/logs: already in ClickHouse/);
  }, 240_000);
});
