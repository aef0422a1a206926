/**
 * A soak: the load test's workload (bench/load.ts) at a bounded rate for half an hour, to see
 * whether the service's memory and open file descriptors level off. Senders ingest the same
 * mix, readers read the same lists (at a bounded rate too), 25 live-feed clients read every
 * message and one never reads (replaced every 2 minutes: bench/soak-feed-clients.ts). Every
 * 10 s the service reports (bench/bench-service.ts's diagnostics, after a full collection) its
 * RSS, V8 heap used and open descriptors; two quiet minutes after the load show what stays.
 *
 * Never asserts: `levelsOff` states the rule and the summary table prints pass or over.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { buildBatch, countError, errorCode, readRoutes, treeCpuSeconds, type Tally } from './load';
import type { SoakFeedCommand, SoakFeedReady, SoakFeedReport } from './soak-feed-clients';
import { spawnBenchService } from './spawn-bench-service';

export type SoakOptions = {
  minutes: number;
  /** Target events per second over all senders. */
  rate: number;
  batch: number;
  senders: number;
  readers: number;
  /** List reads per second over all readers. */
  reads_per_second: number;
  clients: number;
  sample_seconds: number;
  /** Sampling goes on this long after the load stops. */
  idle_seconds: number;
};

export type SoakSample = {
  /** Seconds since the load started (negative: before it). */
  t: number;
  /** `before`: the service as started, before any client connected. */
  phase: 'before' | 'load' | 'idle';
  rss_mb: number;
  /** Of the RSS: anonymous memory (V8, SQLite's page cache, malloc) and the mapped WAL index. */
  anonymous_mb: number;
  wal_index_mb: number;
  heap_used_mb: number;
  /** What V8 holds for its heap (used or not). */
  heap_total_mb: number;
  external_mb: number;
  fds: number;
  /** Open descriptors by what they point at (sockets, pipes, event fds, each file). */
  fd_kinds: Record<string, number>;
  feed_connections: number;
  events_acknowledged: number;
  load_average: number;
};

/** The rule for "levels off", over the load phase's last third. */
export const LEVEL_OFF = {
  rss_mb_per_10_min: 10,
  heap_mb_per_10_min: 5,
} as const;

export type LevelOff = {
  rss_slope_mb_per_10_min: number;
  heap_slope_mb_per_10_min: number;
  /** Descriptors other than sockets (files, pipes, event fds): most in the first and last third. */
  files_first_third_max: number;
  files_last_third_max: number;
  /** Open sockets before any client connected and at the end of the idle tail. */
  sockets_before: number;
  sockets_idle: number;
  rss_ok: boolean;
  heap_ok: boolean;
  fds_ok: boolean;
};

export type SoakReport = {
  measured_at: string;
  options: SoakOptions;
  seconds: number;
  events_sent: number;
  events_acknowledged: number;
  events_per_second: number;
  reads: number;
  service_cpu_seconds: number;
  errors: Record<string, number>;
  error_count: number;
  feed: {
    clients: number;
    expected_per_client: number;
    delivered_per_client: number[];
    missing_total: number;
    closed_early: number;
    stalled_cycles: number;
    stalled_closed_by_service: number;
    errors: string[];
  };
  samples: SoakSample[];
  level_off: LevelOff;
  load_average: { min: number; max: number; mean: number };
};

export function soakOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SoakOptions {
  const n = (name: string, fallback: number, min = 1) => {
    const v = Number(env[name] ?? fallback);
    return Number.isFinite(v) && v >= min ? v : fallback;
  };
  return {
    minutes: n('BENCH_SOAK_MINUTES', 30, 0.5),
    rate: n('BENCH_SOAK_RATE', 500),
    batch: 100,
    senders: 2,
    readers: 4,
    reads_per_second: n('BENCH_SOAK_READS', 8, 0),
    clients: Math.round(n('BENCH_SOAK_CLIENTS', 25, 0)),
    sample_seconds: n('BENCH_SOAK_SAMPLE_SECONDS', 10),
    idle_seconds: n('BENCH_SOAK_IDLE_SECONDS', 120, 0),
  };
}

/** Least-squares slope of `y` over `t` seconds, per 600 s. */
export function slopePer10Min(points: { t: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.y - my);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 600;
}

const sockets = (s: SoakSample) => s.fd_kinds.socket ?? 0;

/**
 * Levels off when, over the last third of the load, RSS rises by at most 10 MB and the heap
 * by at most 5 MB per 10 minutes (least-squares slopes, so the sawtooth of the client that
 * never reads averages out); the last third never holds more descriptors other than sockets
 * than the first third did; and once the load and its clients are gone the service holds no
 * more sockets than before any client connected. Sockets are judged only then: while the load
 * runs their number follows the connections the load generator keeps alive at that moment.
 */
export function levelsOff(samples: SoakSample[]): LevelOff {
  const load = samples.filter((s) => s.phase === 'load');
  const third = Math.max(1, Math.floor(load.length / 3));
  const first = load.slice(0, third);
  const last = load.slice(load.length - third);
  const slope = (pick: (s: SoakSample) => number) =>
    slopePer10Min(last.map((s) => ({ t: s.t, y: pick(s) })));
  const rss = slope((s) => s.rss_mb);
  const heap = slope((s) => s.heap_used_mb);
  const files = (s: SoakSample) => s.fds - sockets(s);
  const filesFirst = Math.max(0, ...first.map(files));
  const filesLast = Math.max(0, ...last.map(files));
  const before = samples.find((s) => s.phase === 'before');
  const idle = samples[samples.length - 1];
  const socketsBefore = before ? sockets(before) : 0;
  const socketsIdle = idle ? sockets(idle) : 0;
  const round1 = (x: number) => Number(x.toFixed(1));
  return {
    rss_slope_mb_per_10_min: round1(rss),
    heap_slope_mb_per_10_min: round1(heap),
    files_first_third_max: filesFirst,
    files_last_third_max: filesLast,
    sockets_before: socketsBefore,
    sockets_idle: socketsIdle,
    rss_ok: rss <= LEVEL_OFF.rss_mb_per_10_min,
    heap_ok: heap <= LEVEL_OFF.heap_mb_per_10_min,
    fds_ok: filesLast <= filesFirst && socketsIdle <= socketsBefore,
  };
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));

type Memory = {
  rss: number;
  rss_anonymous: number;
  rss_wal_index: number;
  heap_used: number;
  heap_total: number;
  external: number;
  fds: number;
  fd_kinds: Record<string, number>;
  feed_connections: number;
};

export async function measureSoak(
  options: SoakOptions,
  onSample: (s: SoakSample) => void = () => {},
): Promise<SoakReport> {
  const service = await spawnBenchService({ BENCH_DIAGNOSTICS: '1' });
  const diagnostics = service.diagnosticsUrl;
  const feed = fork(path.join(import.meta.dirname, 'soak-feed-clients.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const project = service.creds.projects[0];
  const samples: SoakSample[] = [];
  const tally: Tally = { errors: {} };
  let acknowledged = 0;
  let started = now();
  let loadEnds = Infinity;
  const sample = async (before = false) => {
    if (!diagnostics) return;
    const m = (await (await fetch(`${diagnostics}/memory`)).json()) as Memory;
    const t = Math.round((now() - started) / 1000);
    const s: SoakSample = {
      t,
      phase: before ? 'before' : now() < loadEnds ? 'load' : 'idle',
      rss_mb: mb(m.rss),
      anonymous_mb: mb(m.rss_anonymous),
      wal_index_mb: mb(m.rss_wal_index),
      heap_used_mb: mb(m.heap_used),
      heap_total_mb: mb(m.heap_total),
      external_mb: mb(m.external),
      fds: m.fds,
      fd_kinds: m.fd_kinds,
      feed_connections: m.feed_connections,
      events_acknowledged: acknowledged,
      load_average: Number((os.loadavg()[0] ?? 0).toFixed(2)),
    };
    samples.push(s);
    onSample(s);
  };
  let sampler: ReturnType<typeof setInterval> | null = null;

  try {
    if (!project) throw new Error('the bench service has no project');
    if (!diagnostics) throw new Error('the bench service has no diagnostics');
    const release = `soak@${Date.now().toString(36)}`;
    await sample(true);
    feed.send({
      t: 'init',
      baseUrl: service.baseUrl,
      token: service.creds.account_token,
      projectId: project.id,
      clients: options.clients,
      stallCycleMs: 120_000,
    } satisfies SoakFeedCommand);
    const ready = await nextMessage(
      feed,
      (m): m is SoakFeedReady =>
        typeof m === 'object' && m !== null && ['ready', 'failed'].includes((m as SoakFeedReady).t),
    );
    if (ready.t === 'failed') throw new Error(`feed clients: ${ready.error}`);

    // BENCH_SOAK_SNAPSHOTS=1 (with BENCH_KEEP_DATA=1): heap snapshots at the start, a third
    // into the load (warmed up) and after the idle tail, in the service's data directory, to
    // compare what is retained.
    const snapshot = async () => {
      if (process.env.BENCH_SOAK_SNAPSHOTS !== '1') return;
      const res = await fetch(`${diagnostics}/heap-snapshot`, { method: 'POST' });
      console.log(`  heap snapshot: ${await res.text()}`);
    };
    await snapshot();
    started = now();
    await sample();
    sampler = setInterval(
      () => void sample().catch(() => undefined),
      options.sample_seconds * 1000,
    );
    const cpuStart = treeCpuSeconds(service.pid);
    const end = started + options.minutes * 60_000;
    loadEnds = end;
    let sent = 0;
    let reads = 0;
    let batchSeq = 0;
    const interval = (options.batch * options.senders * 1000) / options.rate;

    const sender = async (s: number) => {
      for (let k = 0; ; k++) {
        const due = started + (k + s / options.senders) * interval;
        if (due >= end || now() >= end) return;
        if (due > now()) await sleep(due - now());
        const { body, sent: ids } = buildBatch(options.batch, release, batchSeq++);
        const events = ids.logs.length + ids.spans.length + ids.actions.length + ids.issues.length;
        sent += events;
        try {
          const res = await fetch(`${service.baseUrl}/api/telemetry/ingest`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${project.ingest_key}`,
              'Content-Type': 'application/json',
            },
            body,
          });
          if (res.ok) {
            await res.arrayBuffer();
            acknowledged += events;
          } else countError(tally, 'ingest', res.status, await errorCode(res));
        } catch (e) {
          countError(tally, 'ingest', 'network', e instanceof Error ? e.message : String(e));
        }
      }
    };

    const routes = readRoutes(project.id);
    const readInterval =
      options.reads_per_second > 0 ? (options.readers * 1000) / options.reads_per_second : 0;
    const reader = async (r: number) => {
      if (readInterval === 0) return;
      for (let k = 0; ; k++) {
        const due = started + (k + r / options.readers) * readInterval;
        if (due >= end || now() >= end) return;
        if (due > now()) await sleep(due - now());
        const route = routes[(k * options.readers + r) % routes.length];
        if (!route) return;
        try {
          const res = await fetch(`${service.baseUrl}${route.path}`, {
            headers: { Authorization: `Bearer ${service.creds.account_token}` },
          });
          if (res.ok) await res.arrayBuffer();
          else countError(tally, `GET ${route.route}`, res.status, await errorCode(res));
        } catch (e) {
          countError(tally, `GET ${route.route}`, 'network', e instanceof Error ? e.message : '');
        }
        reads++;
      }
    };

    const third = setTimeout(() => void snapshot(), (options.minutes * 60_000) / 3);
    await Promise.all([
      ...Array.from({ length: options.senders }, (_, s) => sender(s)),
      ...Array.from({ length: options.readers }, (_, r) => reader(r)),
    ]);
    clearTimeout(third);
    const seconds = (now() - started) / 1000;
    const cpuSeconds = treeCpuSeconds(service.pid) - cpuStart;

    feed.send({ t: 'finish', expected: acknowledged, quietMs: 10_000 } satisfies SoakFeedCommand);
    const report = await nextMessage(
      feed,
      (m): m is SoakFeedReport =>
        typeof m === 'object' && m !== null && (m as SoakFeedReport).t === 'soak-report',
    );
    // The quiet tail: what the service still holds once nothing arrives.
    const idleEnd = now() + options.idle_seconds * 1000;
    while (now() < idleEnd) await sleep(500);
    clearInterval(sampler);
    sampler = null;
    await sample();
    await snapshot();

    const loads = samples.map((s) => s.load_average);
    const round1 = (x: number) => Number(x.toFixed(1));
    return {
      measured_at: new Date().toISOString(),
      options,
      seconds: round1(seconds),
      events_sent: sent,
      events_acknowledged: acknowledged,
      events_per_second: Math.round(acknowledged / seconds),
      reads,
      service_cpu_seconds: round1(cpuSeconds),
      errors: tally.errors,
      error_count: Object.values(tally.errors).reduce((a, b) => a + b, 0),
      feed: {
        clients: report.delivered_per_client.length,
        expected_per_client: acknowledged,
        delivered_per_client: report.delivered_per_client,
        missing_total: report.delivered_per_client.reduce(
          (n, d) => n + Math.max(0, acknowledged - d),
          0,
        ),
        closed_early: report.closed_early,
        stalled_cycles: report.stalled.length,
        stalled_closed_by_service: report.stalled.filter((c) => c.closed !== null).length,
        errors: report.errors,
      },
      samples,
      level_off: levelsOff(samples),
      load_average: {
        min: Math.min(...loads),
        max: Math.max(...loads),
        mean: round1(loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length)),
      },
    };
  } finally {
    if (sampler) clearInterval(sampler);
    if (feed.exitCode === null) feed.kill('SIGTERM');
    await service.stop();
  }
}

function nextMessage<T>(child: ChildProcess, accept: (m: unknown) => m is T): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      if (!accept(m)) return;
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`soak feed clients exited with ${code}`)));
  });
}

/** One line per sample, as the soak prints them while it runs. */
export function sampleLine(s: SoakSample): string {
  const min = (s.t / 60).toFixed(1).padStart(5);
  return `  ${min} min ${s.phase.padEnd(4)}  RSS ${String(s.rss_mb).padStart(6)} MB (anon ${String(s.anonymous_mb).padStart(6)}, WAL index ${s.wal_index_mb})  heap ${String(s.heap_total_mb).padStart(6)} MB, used ${String(s.heap_used_mb).padStart(6)} MB  external ${String(s.external_mb).padStart(5)} MB  fds ${String(s.fds).padStart(4)}  feed ${s.feed_connections}  events ${s.events_acknowledged.toLocaleString('en')}  load ${s.load_average}`;
}

/** Samples every `everySeconds` (and the last of the load and of the idle tail), as a Markdown table. */
export function sampleTable(samples: SoakSample[], everySeconds = 180): string {
  const picked = samples.filter(
    (s, i) =>
      s.phase === 'before' ||
      s.t % everySeconds < 10 ||
      i === samples.length - 1 ||
      (s.phase === 'load' && samples[i + 1]?.phase === 'idle'),
  );
  const rows = picked.map(
    (s) =>
      `| ${s.phase === 'before' ? '—' : (s.t / 60).toFixed(0)} | ${s.phase} | ${s.rss_mb} | ${s.anonymous_mb} | ${s.heap_total_mb} | ${s.heap_used_mb} | ${s.wal_index_mb} | ${s.fds} | ${s.events_acknowledged.toLocaleString('en')} | ${s.load_average} |`,
  );
  return [
    '| Minute | Phase | RSS (MB) | Anonymous (MB) | V8 heap total (MB) | V8 heap used (MB) | WAL index (MB) | Open fds | Events acknowledged | Load average |',
    '| ------ | ----- | -------- | -------------- | ------------------ | ----------------- | -------------- | -------- | ------------------- | ------------ |',
    ...rows,
  ].join('\n');
}

/** The curve as a small SVG: RSS and heap in MB and open descriptors, over minutes. */
export function soakSvg(r: SoakReport): string {
  const W = 720;
  const H = 300;
  const pad = { l: 48, r: 16, t: 48, b: 36 };
  const s = r.samples.filter((x) => x.phase !== 'before');
  const maxT = Math.max(60, ...s.map((x) => x.t));
  const maxY =
    Math.ceil(Math.max(100, ...s.map((x) => Math.max(x.rss_mb, x.heap_used_mb, x.fds))) / 100) *
    100;
  const x = (t: number) => pad.l + (t / maxT) * (W - pad.l - pad.r);
  const y = (v: number) => H - pad.b - (v / maxY) * (H - pad.t - pad.b);
  const line = (pick: (p: SoakSample) => number, color: string) =>
    `<polyline fill="none" stroke="${color}" stroke-width="1.5" points="${s.map((p) => `${x(p.t).toFixed(1)},${y(pick(p)).toFixed(1)}`).join(' ')}"/>`;
  const loadEnd = r.options.minutes * 60;
  const ticksY = Array.from({ length: 5 }, (_, i) => (maxY / 4) * i);
  const stepMin = maxT > 1800 ? 5 : maxT > 600 ? 2 : 1;
  const ticksX = Array.from(
    { length: Math.floor(maxT / 60 / stepMin) + 1 },
    (_, i) => i * stepMin * 60,
  );
  const text = (tx: number, ty: number, body: string, anchor = 'middle') =>
    `<text x="${tx.toFixed(1)}" y="${ty.toFixed(1)}" text-anchor="${anchor}">${body}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    text(
      pad.l,
      16,
      `Soak: ${r.events_per_second} events/s for ${r.options.minutes} min, then idle (measured ${r.measured_at.slice(0, 10)})`,
      'start',
    ),
    ...ticksY.map(
      (v) =>
        `<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>${text(pad.l - 6, y(v) + 4, String(v), 'end')}`,
    ),
    ...ticksX.map((t) => text(x(t), H - pad.b + 14, String(t / 60))),
    text((pad.l + W - pad.r) / 2, H - 6, 'minutes'),
    `<line x1="${x(loadEnd)}" x2="${x(loadEnd)}" y1="${pad.t}" y2="${H - pad.b}" stroke="#999" stroke-dasharray="4 3"/>`,
    text(x(loadEnd) - 4, H - pad.b - 6, 'load ends', 'end'),
    line((p) => p.rss_mb, '#1f6feb'),
    line((p) => p.heap_used_mb, '#d1242f'),
    line((p) => p.fds, '#1a7f37'),
    // The legend in one row under the title, clear of the curves.
    `<line x1="${pad.l}" x2="${pad.l + 20}" y1="32" y2="32" stroke="#1f6feb" stroke-width="2"/>${text(pad.l + 26, 36, 'RSS (MB)', 'start')}`,
    `<line x1="${pad.l + 110}" x2="${pad.l + 130}" y1="32" y2="32" stroke="#d1242f" stroke-width="2"/>${text(pad.l + 136, 36, 'V8 heap used after a full GC (MB)', 'start')}`,
    `<line x1="${pad.l + 350}" x2="${pad.l + 370}" y1="32" y2="32" stroke="#1a7f37" stroke-width="2"/>${text(pad.l + 376, 36, 'open file descriptors', 'start')}`,
    '</svg>',
    '',
  ].join('\n');
}

/** The report as `npm run bench -- soak` prints it. */
export function printSoak(r: SoakReport): void {
  const o = r.options;
  const load = r.samples.filter((s) => s.phase === 'load');
  const first = load[0];
  const lastLoad = load[load.length - 1];
  const idle = r.samples[r.samples.length - 1];
  const l = r.level_off;
  console.log(
    `Soak on loopback (${r.seconds} s: ${o.senders} senders at ${o.rate} events/s in batches of ${o.batch}, ${o.readers} readers at ${o.reads_per_second} reads/s, ${o.clients} live-feed clients and 1 that never reads, replaced every 2 minutes)`,
  );
  console.log(
    `  ingest: ${r.events_acknowledged.toLocaleString('en')} of ${r.events_sent.toLocaleString('en')} events acknowledged, ${r.events_per_second} events/s; ${r.reads.toLocaleString('en')} reads; service CPU ${r.service_cpu_seconds} s; load average ${r.load_average.min}–${r.load_average.max} (mean ${r.load_average.mean})`,
  );
  console.log(
    `  RSS ${first?.rss_mb} MB at start, ${lastLoad?.rss_mb} MB at the end of the load, ${idle?.rss_mb} MB idle; heap ${first?.heap_used_mb} → ${lastLoad?.heap_used_mb} → ${idle?.heap_used_mb} MB; fds ${first?.fds} → ${lastLoad?.fds} → ${idle?.fds}`,
  );
  console.log(
    `  last third: RSS ${l.rss_slope_mb_per_10_min} MB/10 min (≤ ${LEVEL_OFF.rss_mb_per_10_min}: ${l.rss_ok ? 'pass' : 'over'}), heap ${l.heap_slope_mb_per_10_min} MB/10 min (≤ ${LEVEL_OFF.heap_mb_per_10_min}: ${l.heap_ok ? 'pass' : 'over'}), other descriptors at most ${l.files_last_third_max} (first third ${l.files_first_third_max}), sockets ${l.sockets_idle} idle against ${l.sockets_before} before (${l.fds_ok ? 'pass' : 'over'})`,
  );
  const f = r.feed;
  console.log(
    `  live feed: ${f.clients} clients, fewest delivered ${Math.min(...f.delivered_per_client).toLocaleString('en')} of ${f.expected_per_client.toLocaleString('en')}; missing ${f.missing_total}; closed early ${f.closed_early}; clients that never read: ${f.stalled_cycles}, ${f.stalled_closed_by_service} closed by the service${f.errors.length ? `; errors ${f.errors.join('; ')}` : ''}`,
  );
  console.log(
    `  errors: ${r.error_count}${
      r.error_count
        ? ` (${Object.entries(r.errors)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; ')})`
        : ''
    }`,
  );
}
