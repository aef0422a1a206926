import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../test-support/api-client';
import { startServiceProcess, type ServiceProcess } from '../test-support/service-process';

/**
 * `npm run service -- migrate` with LOOKOUT_TELEMETRY=clickhouse moves a data directory's
 * SQLite telemetry into ClickHouse: a service refuses to start on it before, the move resumes
 * after a kill, and afterwards the service answers the same reads as before the move. Runs on
 * the embedded engine (`npm run test:clickhouse`); every engine in a process of its own.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const embedded =
  process.env.LOOKOUT_TEST_TELEMETRY === 'clickhouse' && !process.env.CLICKHOUSE_URL?.trim();
const DAY = 86_400_000;
/** One range for both reads (the demo world is seeded around the wall clock's now). */
const NOW = Date.now();

describe.skipIf(!embedded)('moving SQLite telemetry into ClickHouse', () => {
  const clickhouse = {
    LOOKOUT_TELEMETRY: 'clickhouse',
    CLICKHOUSE_DATABASE: `lookout_move_${randomBytes(5).toString('hex')}`,
  };
  let before: ServiceProcess | null = null;
  let after: ServiceProcess | null = null;
  afterAll(async () => {
    await after?.stop();
    await before?.dispose();
  });

  /** The reads a person makes, as the demo owner: lists, an issue's events, the catalog. */
  async function reads(svc: ServiceProcess) {
    const { account_token: token, projects } = svc.credentials();
    const project = projects[0]?.id ?? '';
    const since = encodeURIComponent(new Date(NOW - 30 * DAY).toISOString());
    const until = encodeURIComponent(new Date(NOW + DAY).toISOString());
    const get = async (path: string) => {
      const res = await call(svc.baseUrl, 'GET', path, { token });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      return res.body;
    };
    const issues = (await get(`/api/telemetry/issues?limit=20`)) as { id: string }[];
    const events = await Promise.all(
      issues.slice(0, 5).map((i) => get(`/api/telemetry/issues/${i.id}/events?limit=20`)),
    );
    // Every sample, page by page.
    type Sample = { id: string; occurred_at: string; event_id: string };
    const metrics: Sample[] = [];
    for (let cursor = ''; ;) {
      const page = (await get(`/api/telemetry/metrics?pagination=cursor&limit=200${cursor}`)) as {
        metrics: Sample[];
        next_cursor: { time: string; id: string } | null;
      };
      metrics.push(...page.metrics);
      if (!page.next_cursor) break;
      cursor = `&cursor_time=${encodeURIComponent(page.next_cursor.time)}&cursor_id=${page.next_cursor.id}`;
    }
    return {
      logs: await get(`/api/logs?project_id=${project}&since=${since}&limit=100`),
      errors: await get(`/api/logs?project_id=${project}&since=${since}&severity=error`),
      catalog: await get(`/api/logs/attributes?project_id=${project}&since=${since}`),
      issues,
      events,
      // A sample's own id is the store's (new in ClickHouse), and it orders samples of the
      // same millisecond: compared without it, in an order of the sender's ids.
      metrics: metrics
        .map(({ id: _id, ...m }) => m)
        .sort(
          (a, b) =>
            b.occurred_at.localeCompare(a.occurred_at) || a.event_id.localeCompare(b.event_id),
        ),
      names: await get(
        `/api/telemetry/metrics/names?project_id=${project}&since=${since}&until=${until}`,
      ),
    };
  }

  const migrate = (dataDir: string, env: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', 'server/main.ts', 'migrate'], {
      cwd: ROOT,
      env: { ...process.env, LOOKOUT_DATA_DIR: dataDir, ...clickhouse, ...env },
    });

  it('refuses to serve before the move, resumes after a kill, and reads the same after', async () => {
    before = await startServiceProcess({ sqlite: true, env: { LOOKOUT_DEMO_SCALE: '0.02' } });
    const expected = await reads(before);
    expect((expected.logs as unknown[]).length).toBeGreaterThan(50);
    await before.stop();
    const { dataDir } = before;

    await expect(startServiceProcess({ sqlite: true, dataDir, env: clickhouse })).rejects.toThrow(
      /LOOKOUT_TELEMETRY=clickhouse npm run service -- migrate/,
    );

    // Killed once it reported a chunk moved: the next run resumes and moves each row once.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'migrate'], {
        cwd: ROOT,
        env: {
          ...process.env,
          LOOKOUT_DATA_DIR: dataDir,
          LOOKOUT_MOVE_CHUNK_ROWS: '200',
          ...clickhouse,
        },
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

    after = await startServiceProcess({ sqlite: true, dataDir, env: clickhouse });
    expect(await reads(after)).toEqual(expected);
    await after.stop();

    const again = await migrate(dataDir);
    expect(again.stdout).toMatch(/logs: already in ClickHouse/);
  }, 240_000);
});
