/**
 * The one table `npm run bench` ends with: the key figures of every section, with the target
 * the issues set where there is one and whether the figure meets it. Sections not run in this
 * invocation come from bench/results/*.json of their last run, with that run's date.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BUNDLE_BUDGET, largestRouteChunk } from './bundle-budget';
import type { AlertEvaluationReport } from './alert-evaluation';
import type { BundleReport } from './bundle-size';
import type { DemoSeedReport } from './demo-seed';
import type { IngestReport } from './ingest-throughput';
import type { LoadReport } from './load';
import { LEVEL_OFF, type SoakReport } from './soak';
import type { StoreRun } from './store-comparison';

export type SummaryRow = {
  section: string;
  figure: string;
  value: string;
  /** Empty where no issue set a target. */
  target: string;
  /** `over` an upper bound, `under` a lower one. */
  status: 'pass' | 'over' | 'under' | '';
  /** `this run`, or the date of the results file's run. */
  measured: string;
};

/**
 * Each section: its results file, the command that writes it (`npm run bench -- <run>`, after
 * `env` when it needs one), and its label.
 */
export const SECTIONS: readonly { file: string; run: string; label: string; env?: string }[] = [
  { file: 'bundle.json', run: 'bundle', label: 'bundle' },
  { file: 'ingest.json', run: 'ingest', label: 'ingest' },
  { file: 'log-reads.json', run: 'logs', label: 'logs' },
  { file: 'log-scroll.json', run: 'scroll', label: 'log-scroll' },
  { file: 'release-series.json', run: 'releases', label: 'releases' },
  { file: 'trace-waterfall.json', run: 'waterfall', label: 'traces/waterfall' },
  { file: 'analytics.json', run: 'analytics', label: 'analytics' },
  { file: 'page-open.json', run: 'pages', label: 'page open' },
  { file: 'demo-seed.json', run: 'demo', label: 'demo' },
  { file: 'load.json', run: 'load', label: 'load' },
  { file: 'soak.json', run: 'soak', label: 'soak' },
  { file: 'stores.json', run: 'stores', label: 'stores (clickhouse, postgres; sqlite before)' },
  { file: 'alert-evaluation-1000000.json', run: 'alerts', label: 'alerts (1M logs)' },
  {
    file: 'alert-evaluation-10000000.json',
    run: 'alerts',
    label: 'alerts (10M logs)',
    env: 'BENCH_ALERT_COPIES=10',
  },
];

type Case = { name: string; p50_ms: number; p95_ms: number };
type LogScroll = { rows_loaded: number; frame_p95_ms: number; js_heap_mb: number | null };
type Waterfall = {
  spans: number;
  first_render_ms: number;
  frame_p95_ms: number;
  js_heap_mb: number | null;
};
type Figure = Omit<SummaryRow, 'section' | 'measured'>;

const KB = 1024;
const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n} ms`);
const count = (n: number) => n.toLocaleString('en');
const atMost = (value: number, limit: number) => (value <= limit ? 'pass' : 'over');
const atLeast = (value: number, limit: number) => (value >= limit ? 'pass' : 'under');
const info = (figure: string, value: string): Figure => ({ figure, value, target: '', status: '' });

function bundleFigures(b: BundleReport): Figure[] {
  const largest = largestRouteChunk(b);
  return [
    {
      figure: 'initial route JS (gzip)',
      value: kb(b.initial_js_gzip_bytes),
      target: `≤ ${kb(BUNDLE_BUDGET.initial_js_gzip_bytes)}`,
      status: atMost(b.initial_js_gzip_bytes, BUNDLE_BUDGET.initial_js_gzip_bytes),
    },
    {
      figure: `largest route chunk (gzip): ${largest?.file ?? 'none'}`,
      value: kb(largest?.gzip_bytes ?? 0),
      target: `≤ ${kb(BUNDLE_BUDGET.route_chunk_gzip_bytes)}`,
      status: atMost(largest?.gzip_bytes ?? 0, BUNDLE_BUDGET.route_chunk_gzip_bytes),
    },
    info('initial CSS (gzip)', kb(b.initial_css_gzip_bytes)),
  ];
}

function ingestFigures(runs: IngestReport[]): Figure[] {
  return runs.flatMap((r) => [
    {
      figure: `logs in batches of ${count(r.batch_size)} (batch p50 / p95)`,
      value: `${count(r.events_per_second)} events/s (${ms(r.batch_p50_ms)} / ${ms(r.batch_p95_ms)})`,
      // Issue 26: at least 50,000 log events per second (batches of 1,000, 2 senders).
      ...(r.batch_size === 1000
        ? { target: '≥ 50,000 events/s', status: atLeast(r.events_per_second, 50_000) }
        : { target: '', status: '' as const }),
    },
    // Reports written before the service's CPU time was measured have none.
    ...(r.service_cpu_ms_per_1000_events === undefined
      ? []
      : [
          info(
            `service CPU per 1,000 logs, batches of ${count(r.batch_size)}`,
            ms(r.service_cpu_ms_per_1000_events),
          ),
        ]),
  ]);
}

/** p50 / p95 of each case; `p95Limit` when the cases it accepts have a p95 target. */
function caseFigures(
  cases: Case[],
  p95Limit?: { ms: number; applies: (name: string) => boolean },
): Figure[] {
  return cases.map((c) => {
    const limited = p95Limit?.applies(c.name) ? p95Limit.ms : undefined;
    return {
      figure: `${c.name} (p50 / p95)`,
      value: `${ms(c.p50_ms)} / ${ms(c.p95_ms)}`,
      target: limited === undefined ? '' : `p95 < ${limited} ms`,
      status: limited === undefined ? '' : c.p95_ms < limited ? 'pass' : 'over',
    };
  });
}

function scrollFigures(s: LogScroll): Figure[] {
  return [
    {
      // Issue 4: scrolling 100,000 loaded rows keeps frame time p95 under 20 ms.
      figure: `scroll ${count(s.rows_loaded)} loaded rows: frame p95`,
      value: ms(s.frame_p95_ms),
      target: '< 20 ms',
      status: s.frame_p95_ms < 20 ? 'pass' : 'over',
    },
    info('JS heap', `${s.js_heap_mb ?? '?'} MB`),
  ];
}

function waterfallFigures(runs: Waterfall[]): Figure[] {
  return runs.flatMap((w): Figure[] => [
    {
      // Issue 6: 100,000 spans render in under 1.5 s after the data arrives.
      figure: `${count(w.spans)} spans: first render after the data`,
      value: ms(w.first_render_ms),
      target: w.spans >= 100_000 ? '< 1.5 s' : '',
      status: w.spans < 100_000 ? '' : w.first_render_ms < 1500 ? 'pass' : 'over',
    },
    {
      figure: `${count(w.spans)} spans: scroll frame p95 (heap)`,
      value: `${ms(w.frame_p95_ms)} (${w.js_heap_mb ?? '?'} MB)`,
      target: '< 20 ms',
      status: w.frame_p95_ms < 20 ? 'pass' : 'over',
    },
  ]);
}

type PageOpen = { page: string; content: string; p50_ms: number; p95_ms: number };

function pageOpenFigures(cases: PageOpen[]): Figure[] {
  return cases.map((c) => ({
    figure: `${c.page}: navigation → ${c.content} (p50 / p95)`,
    value: `${ms(c.p50_ms)} / ${ms(c.p95_ms)}`,
    // Issue 24: each page shows its first useful content under 500 ms on the demo world.
    target: 'p95 < 500 ms',
    status: c.p95_ms < 500 ? 'pass' : 'over',
  }));
}

function loadFigures(l: LoadReport): Figure[] {
  const three = (p: { p50_ms: number; p95_ms: number; p99_ms: number }) =>
    `${ms(p.p50_ms)} / ${ms(p.p95_ms)} / ${ms(p.p99_ms)}`;
  const zero = (figure: string, n: number): Figure => ({
    figure,
    value: count(n),
    target: '0',
    status: n === 0 ? 'pass' : 'over',
  });
  const f = l.feed;
  const stalled = f.stalled ?? [];
  return [
    {
      figure: `ingest rate (${l.options.senders} senders${(l.options.projects ?? 1) > 1 ? ` over ${l.options.projects} projects` : ''}, ${l.seconds} s, batches of ${l.options.batch})`,
      value: `${count(l.events_per_second)} events/s`,
      // The configured steady rate, within 5%.
      target: `${count(l.options.rate)} events/s`,
      status: atLeast(l.events_per_second, 0.95 * l.options.rate),
    },
    info('ingest request p50 / p95 / p99', three(l.ingest)),
    ...l.reads.map((r) => info(`GET ${r.route} p50 / p95 / p99`, three(r))),
    info(
      `live feed latency, send → receipt (${f.clients} clients) p50 / p95 / p99`,
      `${ms(f.latency_p50_ms)} / ${ms(f.latency_p95_ms)} / ${ms(f.latency_p99_ms)}`,
    ),
    info(
      'live feed events delivered per client (fewest)',
      `${count(Math.min(...f.delivered_per_client))} of ${count(f.expected_per_client)}`,
    ),
    zero('live feed events missing (all clients)', f.missing_total),
    zero('acknowledged events not readable afterwards', l.lost_count),
    zero('errors (non-2xx, network)', l.error_count),
    ...stalled.map((c) =>
      info(
        'client that never reads (16 MiB backlog limit)',
        `${c.closed ? `closed (${c.closed.code})` : 'still open'} after ${count(c.received)} of ${count(f.expected_per_client)} messages`,
      ),
    ),
    info(
      'service RSS start / peak / end',
      `${l.service_rss_mb.start} / ${l.service_rss_mb.peak} / ${l.service_rss_mb.end} MB`,
    ),
    info('service CPU per 1,000 events (all work)', ms(l.service_cpu_ms_per_1000_events)),
  ];
}

function soakFigures(r: SoakReport): Figure[] {
  const load = r.samples.filter((s) => s.phase === 'load');
  const first = load[0];
  const last = load[load.length - 1];
  const idle = r.samples[r.samples.length - 1];
  const l = r.level_off;
  const trio = (pick: (s: SoakReport['samples'][number]) => number, unit: string) =>
    `${first ? pick(first) : '?'} / ${last ? pick(last) : '?'} / ${idle ? pick(idle) : '?'}${unit}`;
  const slope = (n: number) => `${n >= 0 ? '+' : ''}${n} MB / 10 min`;
  return [
    {
      figure: `ingest rate (${r.options.minutes} min, load average ${r.load_average.mean})`,
      value: `${count(r.events_per_second)} events/s`,
      target: `${count(r.options.rate)} events/s`,
      status: atLeast(r.events_per_second, 0.95 * r.options.rate),
    },
    info(
      'service RSS start / end of load / idle',
      trio((s) => s.rss_mb, ' MB'),
    ),
    info(
      'V8 heap used after GC start / end of load / idle',
      trio((s) => s.heap_used_mb, ' MB'),
    ),
    info(
      'open file descriptors start / end of load / idle',
      trio((s) => s.fds, ''),
    ),
    {
      figure: 'RSS slope over the last third of the load',
      value: slope(l.rss_slope_mb_per_10_min),
      target: `≤ ${LEVEL_OFF.rss_mb_per_10_min} MB / 10 min`,
      status: l.rss_ok ? 'pass' : 'over',
    },
    {
      figure: 'heap slope over the last third of the load',
      value: slope(l.heap_slope_mb_per_10_min),
      target: `≤ ${LEVEL_OFF.heap_mb_per_10_min} MB / 10 min`,
      status: l.heap_ok ? 'pass' : 'over',
    },
    {
      figure: 'descriptors but sockets: most in last (first) third; sockets idle (before)',
      value: `${l.files_last_third_max} (${l.files_first_third_max}); ${l.sockets_idle} (${l.sockets_before})`,
      target: 'last ≤ first; idle ≤ before',
      status: l.fds_ok ? 'pass' : 'over',
    },
    {
      figure: 'live feed events missing (all clients)',
      value: count(r.feed.missing_total),
      target: '0',
      status: r.feed.missing_total === 0 ? 'pass' : 'over',
    },
    {
      figure: 'errors (non-2xx, network)',
      value: count(r.error_count),
      target: '0',
      status: r.error_count === 0 ? 'pass' : 'over',
    },
  ];
}

function storeFigures(runs: StoreRun[]): Figure[] {
  return runs.flatMap((r) => {
    // Runs from before arrivals were recorded spread their logs over the 14 days.
    const label = `${r.store} ${count(r.logs)} logs${r.arrival === 'live' ? '' : ' (backfill)'}`;
    return [
      info(
        `${label}: ingest`,
        `${count(r.ingest_events_per_second)} events/s${r.measured_at ? ` (measured ${r.measured_at.slice(0, 10)})` : ''}`,
      ),
      ...(r.ingest_last_tenth_events_per_second === undefined
        ? []
        : [
            info(
              `${label}: ingest, last tenth`,
              `${count(r.ingest_last_tenth_events_per_second)} events/s`,
            ),
          ]),
      ...caseFigures(
        r.cases.map((c) => ({ ...c, name: `${label}: ${c.name}` })),
        // Issue 4's target holds on both stores (issue 12).
        { ms: 100, applies: () => true },
      ),
    ];
  });
}

function demoFigures(r: DemoSeedReport): Figure[] {
  return r.runs.flatMap((run) => [
    info(
      `Demo world at scale ${run.scale} (${count(run.items)} items) seeded, CPU (load average ${run.load_before[0] ?? 0})`,
      `${run.seed_seconds.toFixed(1)} s (${run.start_cpu_seconds.toFixed(1)} s of CPU)`,
    ),
    info(
      `  ClickHouse parts written by its ${count(run.requests)} requests`,
      count(run.parts_written),
    ),
  ]);
}

function alertFigures(a: AlertEvaluationReport): Figure[] {
  const rules = Object.values(a.rules).reduce((sum, n) => sum + n, 0);
  const interval = a.interval_seconds * 1000;
  // Issue 29: 1,000 rules over the 10M-log store evaluated within one interval.
  const within = (figure: string, p: AlertEvaluationReport['first_pass']): Figure => ({
    figure: `${count(rules)} rules: ${figure} (load average ${a.load_average.join(' ')})`,
    value: ms(Math.round(p.seconds * 1000)),
    target: `< ${ms(interval)}`,
    status: p.seconds * 1000 < interval ? 'pass' : 'over',
  });
  return [
    within('first pass after a start', a.first_pass),
    within("next minute's pass", a.next_pass),
    info('rules firing after the first pass', count(a.first_pass.firing_after)),
  ];
}

function figuresOf(file: string, data: unknown): Figure[] {
  switch (file) {
    case 'bundle.json':
      return bundleFigures(data as BundleReport);
    case 'ingest.json':
      return ingestFigures(data as IngestReport[]);
    case 'log-reads.json':
      // Issue 4: p95 under 100 ms for a page of 100 (list and attribute-filter pages).
      return caseFigures((data as { cases: Case[] }).cases, {
        ms: 100,
        applies: (name) => !name.startsWith('catalog'),
      });
    case 'log-scroll.json':
      return scrollFigures(data as LogScroll);
    case 'release-series.json':
      return caseFigures((data as { cases: Case[] }).cases);
    case 'trace-waterfall.json':
      return waterfallFigures(data as Waterfall[]);
    case 'analytics.json':
      return caseFigures((data as { cases: Case[] }).cases);
    case 'page-open.json':
      return pageOpenFigures((data as { cases: PageOpen[] }).cases);
    case 'demo-seed.json':
      return demoFigures(data as DemoSeedReport);
    case 'load.json':
      return loadFigures(data as LoadReport);
    case 'soak.json':
      return soakFigures(data as SoakReport);
    case 'stores.json':
      return storeFigures(data as StoreRun[]);
    case 'alert-evaluation-1000000.json':
    case 'alert-evaluation-10000000.json':
      return alertFigures(data as AlertEvaluationReport);
    default:
      return [];
  }
}

/**
 * A results file's data and its run's time. Arrays are written as `{measured_at, results}`;
 * files from before `measured_at` existed are dated by their modification time.
 */
function readResults(file: string): { data: unknown; measuredAt: Date } | null {
  if (!fs.existsSync(file)) return null;
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  const record = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const at = typeof record.measured_at === 'string' ? new Date(record.measured_at) : null;
  const data = !Array.isArray(json) && Array.isArray(record.results) ? record.results : json;
  return { data, measuredAt: at ?? fs.statSync(file).mtime };
}

/** `written`: the results files this invocation wrote ("this run"); the others are dated. */
export function summaryRows(resultsDir: string, written: ReadonlySet<string>): SummaryRow[] {
  return SECTIONS.flatMap((s) => {
    const results = readResults(path.join(resultsDir, s.file));
    if (!results)
      return [
        {
          section: s.label,
          figure: `not measured yet (${s.env ? `${s.env} ` : ''}npm run bench -- ${s.run})`,
          value: '',
          target: '',
          status: '' as const,
          measured: '',
        },
      ];
    const measured = written.has(s.file)
      ? 'this run'
      : `${results.measuredAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    return figuresOf(s.file, results.data).map((f) => ({ section: s.label, measured, ...f }));
  });
}

/** The rows as one aligned Markdown table (so it can be pasted into the README as it is). */
export function formatSummaryTable(rows: SummaryRow[]): string {
  const header = ['Section', 'Figure', 'Measured', 'Target', 'Status', 'When'];
  const cells = rows.map((r) => [r.section, r.figure, r.value, r.target, r.status, r.measured]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
