/** `npm run bench`: measures, prints a summary and writes bench/results/*.json. Never asserts. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureAlertEvaluation } from './alert-evaluation';
import { measureAnalytics } from './analytics';
import { layOutByHour, measureExplorerLayouts } from './explorer-layout';
import { largestRouteChunk } from './bundle-budget';
import { measureBundle } from './bundle-size';
import { measureDemoSeed, printDemoSeed } from './demo-seed';
import { measureIngest } from './ingest-throughput';
import { loadOptionsFromEnv, measureLoad, printLoad } from './load';
import { measureLogReads } from './log-reads';
import { measureLogScroll } from './log-scroll';
import { measurePageOpen } from './page-open';
import { measureReleaseSeries } from './release-series';
import {
  measureSoak,
  printSoak,
  sampleLine,
  sampleTable,
  soakOptionsFromEnv,
  soakSvg,
} from './soak';
import { measureStores, mergeStoreRuns, type StoreName, type StoreRun } from './store-comparison';
import { formatSummaryTable, summaryRows } from './summary-table';
import { measureTraceWaterfall } from './trace-waterfall';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'bench/results');
fs.mkdirSync(results, { recursive: true });
// Every result says when it was measured (the summary table dates sections not run now);
// a list is kept under `results`.
const written = new Set<string>();
const write = (name: string, data: unknown) => {
  written.add(name);
  const measured_at = new Date().toISOString();
  const dated = Array.isArray(data)
    ? { measured_at, results: data }
    : { measured_at, ...(data as object) };
  fs.writeFileSync(path.join(results, name), `${JSON.stringify(dated, null, 2)}\n`);
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
// `npm run bench -- logs` (or `releases`, …) runs only the named sections; all of them without arguments.
const only = new Set(process.argv.slice(2));
const runs = (section: string) => only.size === 0 || only.has(section);

if (runs('bundle')) {
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  const bundle = measureBundle(path.join(root, 'dist'));
  write('bundle.json', bundle);
  console.log('Bundle');
  console.log(`  initial JS (gzip):  ${kb(bundle.initial_js_gzip_bytes)}`);
  const largest = largestRouteChunk(bundle);
  if (largest)
    console.log(`  largest route chunk (gzip): ${kb(largest.gzip_bytes)} (${largest.file})`);
  console.log(`  initial CSS (gzip): ${kb(bundle.initial_css_gzip_bytes)}`);
  for (const c of bundle.chunks.filter((x) => !x.initial))
    console.log(`  chunk ${c.file}: ${kb(c.gzip_bytes)}`);
}

if (runs('ingest')) {
  const ingest = await measureIngest([1000, 100], Number(process.env.BENCH_INGEST_LOGS ?? 100_000));
  write('ingest.json', ingest);
  console.log('Ingest (logs through POST /api/telemetry/ingest, 2 senders, default deployment)');
  for (const r of ingest) {
    console.log(
      `  batches of ${r.batch_size}: ${r.events_per_second.toLocaleString('en')} events/s (${r.events.toLocaleString('en')} events in ${r.seconds} s; batch p50 ${r.batch_p50_ms} ms, p95 ${r.batch_p95_ms} ms; service CPU ${r.service_cpu_ms_per_1000_events} ms per 1,000)`,
    );
  }
}

if (runs('logs')) {
  const total = Number(process.env.BENCH_LOGS ?? 1_000_000);
  const reads = await measureLogReads(total);
  write('log-reads.json', reads);
  console.log(
    `Log reads (${reads.logs.toLocaleString('en')} logs in ${reads.projects} projects, seeded in ${reads.seed_seconds} s at ${reads.seed_events_per_second.toLocaleString('en')} events/s; database ${(reads.database_bytes / 1024 / 1024).toFixed(0)} MB + WAL ${(reads.wal_bytes / 1024 / 1024).toFixed(0)} MB)`,
  );
  console.log(
    `  storage: ${reads.storage.map((t) => `${t.name} ${(t.bytes / 1024 / 1024).toFixed(0)} MB`).join(', ')}`,
  );
  if (reads.clickhouse)
    console.log(
      `  ClickHouse: ${(reads.clickhouse.active_part_bytes / 1024 / 1024).toFixed(1)} MB in ${reads.clickhouse.active_parts} active parts (${(reads.clickhouse.active_part_bytes / reads.logs).toFixed(0)} B/log), directory ${(reads.clickhouse.directory_bytes / 1024 / 1024).toFixed(1)} MB`,
    );
  for (const c of reads.cases)
    console.log(
      `  ${c.name.padEnd(46)} p50 ${String(c.p50_ms).padStart(7)} ms  p95 ${String(c.p95_ms).padStart(7)} ms  (${c.rows_p50} rows)`,
    );
}

if (runs('stores')) {
  // 10M logs take over an hour per store: BENCH_STORE_LOGS=1000000 for a quicker look, and
  // BENCH_STORES=postgres (or clickhouse) for one store. Runs of other sizes and stores stay.
  const sizes = (process.env.BENCH_STORE_LOGS ?? '1000000,10000000').split(',').map(Number);
  const stores = (process.env.BENCH_STORES ?? 'clickhouse,postgres')
    .split(',')
    .filter((s): s is StoreName => s === 'clickhouse' || s === 'postgres');
  const file = path.join(results, 'stores.json');
  // Logs arrive as services send them (`live`); BENCH_STORE_ARRIVAL=backfill for an import's.
  const arrival = process.env.BENCH_STORE_ARRIVAL === 'backfill' ? 'backfill' : 'live';
  const readRuns = Number(process.env.BENCH_STORE_RUNS ?? 30);
  await measureStores(sizes, stores, arrival, readRuns, (run) => {
    const earlier = fs.existsSync(file)
      ? ((JSON.parse(fs.readFileSync(file, 'utf8')) as { results?: StoreRun[] }).results ?? [])
      : [];
    write('stores.json', mergeStoreRuns(earlier, [run]));
    console.log(
      `  ${run.store.padEnd(8)} ${run.logs.toLocaleString('en').padStart(10)} logs (${arrival}): ingest ${run.ingest_events_per_second.toLocaleString('en')} events/s (${run.seed_seconds} s; last tenth ${run.ingest_last_tenth_events_per_second?.toLocaleString('en') ?? '?'} events/s)`,
    );
    for (const c of run.cases)
      console.log(
        `    ${c.name.padEnd(46)} p50 ${String(c.p50_ms).padStart(7)} ms  p95 ${String(c.p95_ms).padStart(7)} ms  (${c.rows_p50} rows)`,
      );
  });
}

// Reads kept stores only: a run of every section without BENCH_EXPLORER_DIRS skips it.
if (runs('explorer-layout') && (only.has('explorer-layout') || process.env.BENCH_EXPLORER_DIRS)) {
  // Issue 26's explorer pages on kept 10M stores (data directories of bench services), read
  // side by side: BENCH_EXPLORER_DIRS=copied,live; BENCH_EXPLORER_RELAY=live (one of them)
  // first rewrites that store's logs hour by hour, BENCH_EXPLORER_COPIES times its seed.
  const dirs = (process.env.BENCH_EXPLORER_DIRS ?? '').split(',').filter(Boolean);
  if (dirs.length === 0) throw new Error('BENCH_EXPLORER_DIRS names no data directory to read');
  const relay = process.env.BENCH_EXPLORER_RELAY;
  const relaid = relay
    ? await layOutByHour(
        path.join(relay, 'clickhouse'),
        Number(process.env.BENCH_EXPLORER_COPIES ?? 10),
      )
    : null;
  if (relaid) console.log(`Relaid ${relay ?? ''}: ${relaid.length} parts`);
  const ex = await measureExplorerLayouts(dirs, Number(process.env.BENCH_EXPLORER_RUNS ?? 30));
  write('explorer-layout.json', ex);
  console.log(
    `Explorer pages by store layout (load ${ex.load_average_before.join(' ')} → ${ex.load_average_after.join(' ')})`,
  );
  for (const st of ex.stores) {
    console.log(`  ${st.dir}: ${st.parts.length} parts of logs`);
    for (const p of st.parts)
      console.log(`    ${p.name} ${String(p.rows).padStart(9)} rows ${p.min_time} → ${p.max_time}`);
    for (const c of st.cases)
      console.log(
        `    ${c.name.padEnd(46)} p50 ${String(c.p50_ms).padStart(7)} ms  p95 ${String(c.p95_ms).padStart(7)} ms  CPU ${String(c.cpu_ms_per_read).padStart(5)} ms/read`,
      );
  }
}

if (runs('alerts')) {
  // 1M seeded through ingest by default; BENCH_ALERT_COPIES=10 writes it ten times into
  // ClickHouse for issue 29's 10M store; BENCH_ALERTS_DIR keeps the seed for the next run.
  const total = Number(process.env.BENCH_ALERT_LOGS ?? 1_000_000);
  const copies = Number(process.env.BENCH_ALERT_COPIES ?? 1);
  const al = await measureAlertEvaluation(
    total,
    Number(process.env.BENCH_ALERT_RULES ?? 1_000),
    copies,
  );
  write(`alert-evaluation-${String(al.logs)}.json`, al);
  const rules = Object.entries(al.rules)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  console.log(
    `Alert evaluation (${al.logs.toLocaleString('en')} logs in ${al.projects} projects, ${al.seeded_now ? 'seeded' : 'seed kept'}: ${al.seed_seconds} s through ingest${al.copies > 1 ? `, written ${al.copies} times into ClickHouse in ${al.copy_seconds} s` : ''}; rules: ${rules}; load average ${al.load_average.join(' ')})`,
  );
  for (const [name, p] of [
    ['first pass (first window of each rule)', al.first_pass],
    ["next minute's pass", al.next_pass],
  ] as const)
    console.log(
      `  ${name.padEnd(40)} ${String(p.seconds).padStart(7)} s  (${p.windows_recorded} windows, ${p.firing_after} firing; interval ${al.interval_seconds} s)`,
    );
}

if (runs('releases')) {
  const total = Number(process.env.BENCH_EVENTS ?? 1_000_000);
  const rs = await measureReleaseSeries(total);
  write('release-series.json', rs);
  console.log(
    `Release health reads (${rs.events.toLocaleString('en')} events: ${rs.metric_samples.toLocaleString('en')} metric samples, ${rs.spans.toLocaleString('en')} spans in ${rs.traces.toLocaleString('en')} traces, ${rs.logs.toLocaleString('en')} logs, ${rs.issue_events} issue events; ${rs.projects} projects, ${rs.release_rows} release rows)`,
  );
  console.log(
    `  seeded in ${rs.seed_seconds} s at ${rs.seed_events_per_second.toLocaleString('en')} events/s (${rs.batches} batches, ${rs.senders} senders); database ${(rs.database_bytes / 1024 / 1024).toFixed(0)} MB + WAL ${(rs.wal_bytes / 1024 / 1024).toFixed(0)} MB`,
  );
  console.log(
    `  storage: ${rs.storage.map((t) => `${t.name} ${(t.bytes / 1024 / 1024).toFixed(0)} MB`).join(', ')}`,
  );
  for (const c of rs.cases)
    console.log(
      `  ${c.name.padEnd(46)} p50 ${String(c.p50_ms).padStart(7)} ms  p95 ${String(c.p95_ms).padStart(7)} ms  (${c.size} rows/cells)`,
    );
}

if (runs('analytics')) {
  const total = Number(process.env.BENCH_ACTIONS ?? 1_000_000);
  const an = await measureAnalytics(total, Number(process.env.BENCH_ANALYTICS_RUNS ?? 10));
  // The ClickHouse run is kept beside the state store's, for the before/after.
  write(an.telemetry === 'clickhouse' ? 'analytics-clickhouse.json' : 'analytics.json', an);
  console.log(
    `Product analytics reads (${an.actions.toLocaleString('en')} actions in ${an.sessions.toLocaleString('en')} sessions of ${an.users.toLocaleString('en')} users over ${an.days} days; ${an.projects} projects; actions in ${an.telemetry === 'clickhouse' ? 'ClickHouse' : 'the state store'}; load average ${an.load_average.join(' → ')})`,
  );
  console.log(
    `  seeded in ${an.seed_seconds} s at ${an.seed_events_per_second.toLocaleString('en')} actions/s (${an.batches} batches, ${an.senders} senders); database ${(an.database_bytes / 1024 / 1024).toFixed(0)} MB + WAL ${(an.wal_bytes / 1024 / 1024).toFixed(0)} MB`,
  );
  console.log(
    `  storage: ${an.storage.map((t) => `${t.name} ${(t.bytes / 1024 / 1024).toFixed(0)} MB`).join(', ')}`,
  );
  if (an.clickhouse)
    console.log(
      `  ClickHouse: ${(an.clickhouse.active_part_bytes / 1024 / 1024).toFixed(1)} MB in ${an.clickhouse.active_parts} active parts (${(an.clickhouse.active_part_bytes / an.actions).toFixed(0)} B/action), directory ${(an.clickhouse.directory_bytes / 1024 / 1024).toFixed(1)} MB`,
    );
  for (const c of an.cases)
    console.log(
      `  ${c.name.padEnd(46)} p50 ${String(c.p50_ms).padStart(7)} ms  p95 ${String(c.p95_ms).padStart(7)} ms  (${c.size} rows, ${kb(c.bytes)})`,
    );
}

if (runs('scroll')) {
  if (!fs.existsSync(path.join(root, 'dist/index.html')))
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      { cwd: root, stdio: 'inherit' },
    );
  const scroll = await measureLogScroll(Number(process.env.BENCH_SCROLL_ROWS ?? 100_000));
  write('log-scroll.json', scroll);
  console.log(
    `Logs explorer in Chromium (${scroll.rows_loaded.toLocaleString('en')} rows loaded by scrolling in ${scroll.load_seconds} s; JS heap ${scroll.js_heap_mb ?? '?'} MB)`,
  );
  console.log(
    `  scrolling: ${scroll.frames} frames, p50 ${scroll.frame_p50_ms} ms, p95 ${scroll.frame_p95_ms} ms, max ${scroll.frame_max_ms} ms`,
  );
}

if (runs('waterfall')) {
  if (!fs.existsSync(path.join(root, 'dist/index.html')))
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      { cwd: root, stdio: 'inherit' },
    );
  const sizes = (process.env.BENCH_WATERFALL_SPANS ?? '1000,10000,100000').split(',').map(Number);
  const waterfall = await measureTraceWaterfall(sizes);
  write('trace-waterfall.json', waterfall);
  console.log(
    'Trace waterfall in Chromium (first render: span list response → first rows painted)',
  );
  console.log(
    '  spans    depth  errors  response  first render  open (from navigation)  scroll p50 / p95 / max  heap',
  );
  for (const c of waterfall)
    console.log(
      `  ${c.spans.toLocaleString('en').padStart(7)}  ${String(c.max_depth).padStart(5)}  ${String(c.errors).padStart(6)}  ${`${c.response_mb} MB`.padStart(8)}  ${`${c.first_render_ms} ms`.padStart(12)}  ${`${c.open_ms} ms`.padStart(22)}  ${`${c.frame_p50_ms} / ${c.frame_p95_ms} / ${c.frame_max_ms} ms`.padStart(22)}  ${c.js_heap_mb ?? '?'} MB`,
    );
  console.log('  spans    service read (plain / br)  browser read  transferred  load average');
  for (const c of waterfall)
    console.log(
      `  ${c.spans.toLocaleString('en').padStart(7)}  ${`${c.service_ms} / ${c.service_br_ms} ms`.padStart(25)}  ${`${c.read_ms} ms`.padStart(12)}  ${`${c.transfer_mb} MB`.padStart(11)}  ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
}

if (runs('pages')) {
  if (!fs.existsSync(path.join(root, 'dist/index.html')))
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      { cwd: root, stdio: 'inherit' },
    );
  const pages = await measurePageOpen(Number(process.env.BENCH_PAGES_SCALE ?? 1));
  write('page-open.json', pages);
  console.log(
    `Page open in Chromium (demo world at scale ${pages.demo_scale}, seeded in ${pages.seed_seconds} s; navigation → first content painted)`,
  );
  for (const c of pages.cases)
    console.log(
      `  ${c.page.padEnd(22)} p50 ${String(c.p50_ms).padStart(5)} ms  p95 ${String(c.p95_ms).padStart(5)} ms  (${c.content}; slowest read ${c.slowest_read_ms} ms ${c.slowest_read})`,
    );
}

if (runs('demo')) {
  const demo = await measureDemoSeed(
    Number(process.env.BENCH_DEMO_SCALE ?? 1),
    Number(process.env.BENCH_DEMO_RUNS ?? 2),
  );
  write('demo-seed.json', demo);
  printDemoSeed(demo);
}

if (runs('load')) {
  const load = await measureLoad(loadOptionsFromEnv());
  write('load.json', load);
  printLoad(load);
}

if (runs('soak')) {
  const options = soakOptionsFromEnv();
  console.log(
    `Soak: ${options.minutes} min at ${options.rate} events/s, then ${options.idle_seconds} s idle; a sample every ${options.sample_seconds} s`,
  );
  const soak = await measureSoak(options, (s) => console.log(sampleLine(s)));
  write('soak.json', soak);
  fs.writeFileSync(path.join(results, 'soak.svg'), soakSvg(soak));
  // Every 3 minutes, as bench/README.md shows the curve.
  fs.writeFileSync(path.join(results, 'soak-samples.md'), `${sampleTable(soak.samples)}\n`);
  printSoak(soak);
}

console.log(`wrote ${path.relative(root, results)}/*.json`);
console.log('');
console.log(formatSummaryTable(summaryRows(results, written)));
