import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BundleReport } from './bundle-size';
import { formatSummaryTable, summaryRows } from './summary-table';

const KB = 1024;
let dir = '';
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-summary-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, data: unknown) =>
  fs.writeFileSync(path.join(dir, name), JSON.stringify(data));

const bundle = (initial: number, chunk: number): BundleReport => ({
  initial_js_gzip_bytes: initial,
  initial_css_gzip_bytes: 3 * KB,
  chunks: [
    { file: 'assets/index.js', gzip_bytes: initial, initial: true },
    { file: 'assets/charts.js', gzip_bytes: chunk, initial: false },
    { file: 'assets/logs.js', gzip_bytes: 10 * KB, initial: false },
  ],
});

const rowsOf = (section: string, written: string[] = []) =>
  summaryRows(dir, new Set(written)).filter((r) => r.section === section);

describe('bench summary table', () => {
  it('reports both bundle budgets, naming the largest route chunk, and marks what is over', () => {
    write('bundle.json', { measured_at: '2026-11-20T10:00:00.000Z', ...bundle(151 * KB, 97 * KB) });
    const [initial, largest] = rowsOf('bundle');
    expect(initial).toMatchObject({
      figure: 'initial route JS (gzip)',
      value: '151.0 KB',
      target: '≤ 150.0 KB',
      status: 'over',
      measured: '2026-11-20 10:00 UTC',
    });
    expect(largest).toMatchObject({
      figure: 'largest route chunk (gzip): assets/charts.js',
      value: '97.0 KB',
      status: 'pass',
    });
  });

  it('says "this run" for a section just measured, and unwraps a dated list', () => {
    write('ingest.json', {
      measured_at: '2026-11-20T10:00:00.000Z',
      results: [
        {
          batch_size: 1000,
          events_per_second: 51_000,
          batch_p50_ms: 40,
          batch_p95_ms: 70,
          service_cpu_ms_per_1000_events: 35,
        },
      ],
    });
    expect(rowsOf('ingest', ['ingest.json'])).toEqual([
      {
        section: 'ingest',
        figure: 'logs in batches of 1,000 (batch p50 / p95)',
        value: '51,000 events/s (40 ms / 70 ms)',
        target: '≥ 50,000 events/s',
        status: 'pass',
        measured: 'this run',
      },
      {
        section: 'ingest',
        figure: 'service CPU per 1,000 logs, batches of 1,000',
        value: '35 ms',
        target: '',
        status: '',
        measured: 'this run',
      },
    ]);
  });

  it('applies the 100 ms p95 target to log pages but not to the catalog', () => {
    write('log-reads.json', {
      cases: [
        { name: 'list: one project, first page', p50_ms: 30, p95_ms: 120 },
        { name: 'catalog: 7d', p50_ms: 30, p95_ms: 120 },
      ],
    });
    expect(rowsOf('logs').map((r) => [r.target, r.status])).toEqual([
      ['p95 < 100 ms', 'over'],
      ['', ''],
    ]);
  });

  it('puts each store beside the other at each size, with the logs target on both', () => {
    const run = (store: string, p95: number, more: object = {}) => ({
      store,
      logs: 1_000_000,
      seed_seconds: 50,
      ingest_events_per_second: 20_000,
      cases: [{ name: 'list: one project, first page', p50_ms: 10, p95_ms: p95 }],
      ...more,
    });
    write('stores.json', [
      run('sqlite', 40, { arrival: 'live', ingest_last_tenth_events_per_second: 15_000 }),
      // A run from before arrivals were recorded spread its logs over the whole span.
      run('postgres', 140),
    ]);
    expect(
      rowsOf('stores (clickhouse, postgres; sqlite before)').map((r) => [
        r.figure,
        r.value,
        r.status,
      ]),
    ).toEqual([
      ['sqlite 1,000,000 logs: ingest', '20,000 events/s', ''],
      ['sqlite 1,000,000 logs: ingest, last tenth', '15,000 events/s', ''],
      ['sqlite 1,000,000 logs: list: one project, first page (p50 / p95)', '10 ms / 40 ms', 'pass'],
      ['postgres 1,000,000 logs (backfill): ingest', '20,000 events/s', ''],
      [
        'postgres 1,000,000 logs (backfill): list: one project, first page (p50 / p95)',
        '10 ms / 140 ms',
        'over',
      ],
    ]);
  });

  it('holds every page open to 500 ms at p95, naming what counted as content', () => {
    write('page-open.json', {
      measured_at: '2026-11-26T10:00:00.000Z',
      demo_scale: 1,
      cases: [
        { page: 'issues', content: 'issue rows', p50_ms: 310, p95_ms: 420 },
        { page: 'traces', content: 'trace rows', p50_ms: 450, p95_ms: 530 },
      ],
    });
    const [issues, traces] = rowsOf('page open');
    expect(issues).toMatchObject({
      figure: 'issues: navigation → issue rows (p50 / p95)',
      value: '310 ms / 420 ms',
      target: 'p95 < 500 ms',
      status: 'pass',
    });
    expect(traces).toMatchObject({ status: 'over' });
  });

  it('holds 1,000 alert rules to one interval at 1M and 10M logs, each its own run', () => {
    const report = (first: number, next: number, load: number[]) => ({
      measured_at: '2026-11-27T08:00:00.000Z',
      logs: 10_000_000,
      projects: 3,
      rules: { log: 850, metric: 50, trace: 50, issue: 50 },
      seed_seconds: 677,
      seeded_now: false,
      copies: 10,
      copy_seconds: 900,
      interval_seconds: 60,
      first_pass: { seconds: first, windows_recorded: 1000, firing_after: 223 },
      next_pass: { seconds: next, windows_recorded: 1000, firing_after: 223 },
      load_average: load,
    });
    write('alert-evaluation-10000000.json', report(61.2, 35.01, [13.1, 15, 14.2]));
    const rows = rowsOf('alerts (10M logs)', ['alert-evaluation-10000000.json']);
    expect(rows.map((r) => [r.figure, r.value, r.target, r.status, r.measured])).toEqual([
      [
        '1,000 rules: first pass after a start (load average 13.1 15 14.2)',
        '61.20 s',
        '< 60.00 s',
        'over',
        'this run',
      ],
      [
        "1,000 rules: next minute's pass (load average 13.1 15 14.2)",
        '35.01 s',
        '< 60.00 s',
        'pass',
        'this run',
      ],
      ['rules firing after the first pass', '223', '', '', 'this run'],
    ]);
    // The 1M run is another file: not measured by this run, and its command says so.
    expect(rowsOf('alerts (1M logs)', ['alert-evaluation-10000000.json'])).toEqual([
      expect.objectContaining({ figure: 'not measured yet (npm run bench -- alerts)' }),
    ]);
    fs.rmSync(path.join(dir, 'alert-evaluation-10000000.json'));
    expect(rowsOf('alerts (10M logs)')).toEqual([
      expect.objectContaining({
        figure: 'not measured yet (BENCH_ALERT_COPIES=10 npm run bench -- alerts)',
      }),
    ]);
  });

  it('gives each demo seed run its time, CPU, load and parts written', () => {
    write('demo-seed.json', {
      measured_at: '2026-11-27T21:00:00.000Z',
      runs: [
        {
          scale: 1,
          load_before: [2.5, 3, 3],
          load_after: [3, 3, 3],
          start_seconds: 21,
          start_cpu_seconds: 31.24,
          seed_seconds: 18.04,
          generate_cpu_seconds: 4,
          items: 228_000,
          requests: 259,
          parts: [],
          parts_written: 412,
        },
      ],
    });
    expect(rowsOf('demo')).toEqual([
      expect.objectContaining({
        figure: 'Demo world at scale 1 (228,000 items) seeded, CPU (load average 2.5)',
        value: '18.0 s (31.2 s of CPU)',
      }),
      expect.objectContaining({
        figure: '  ClickHouse parts written by its 259 requests',
        value: '412',
      }),
    ]);
  });

  it('names the command for a section never measured', () => {
    expect(rowsOf('load')).toEqual([
      expect.objectContaining({ figure: 'not measured yet (npm run bench -- load)' }),
    ]);
  });

  it('prints one aligned Markdown table', () => {
    write('bundle.json', bundle(100 * KB, 50 * KB));
    const lines = formatSummaryTable(summaryRows(dir, new Set())).split('\n');
    expect(lines[0]).toMatch(
      /^\| Section +\| Figure +\| Measured +\| Target +\| Status +\| When +\|$/,
    );
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    // Header and rule, the bundle's three figures, one 'not measured yet' row per other section.
    expect(lines).toHaveLength(2 + 3 + 13);
  });
});
