/**
 * A bounded load test on loopback against the service in its own process: for a fixed time,
 * S senders ingest a steady mix of logs, spans, actions and issue events; R readers loop over
 * the list routes the console reads; C live-feed clients (bench/load-feed-clients.ts, another
 * process) read every message. Then it checks that nothing failed, that every acknowledged
 * event is readable through the list routes, and that every client got every event.
 *
 * Never asserts: it reports what it found, so a run that finds a problem still prints figures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  ISSUE_FINGERPRINT_PREFIX,
  type FeedClientReport,
  type FeedCommand,
  type FeedReady,
  type FeedReport,
  type StalledReport,
} from './load-feed-clients';
import { spawnBenchService, type BenchService } from './spawn-bench-service';

export type LoadOptions = {
  seconds: number;
  /** Target events per second over all senders. */
  rate: number;
  batch: number;
  senders: number;
  readers: number;
  clients: number;
  /** Extra clients that connect and never read: the service must not buffer for them forever. */
  stalled: number;
  /** Projects the senders spread over (sender s sends to project s mod projects). */
  projects: number;
};

type Percentiles = { count: number; p50_ms: number; p95_ms: number; p99_ms: number };

export type LoadReport = {
  measured_at: string;
  options: LoadOptions;
  seconds: number;
  events_sent: number;
  events_acknowledged: number;
  events_per_second: number;
  /** CPU time of the service during the run (senders, readers and feed together), and per event. */
  service_cpu_seconds: number;
  service_cpu_ms_per_1000_events: number;
  ingest: Percentiles;
  reads: ({ route: string } & Percentiles)[];
  /** Every non-2xx (and network failure) during the run, by `where status code`. */
  errors: Record<string, number>;
  error_count: number;
  /** Acknowledged events not found through the list routes afterwards, per type. */
  lost: { logs: number; spans: number; actions: number; issues: number };
  lost_count: number;
  readback_errors: Record<string, number>;
  feed: {
    clients: number;
    expected_per_client: number;
    delivered_per_client: number[];
    missing_per_client: number[];
    missing_total: number;
    duplicates_total: number;
    closed_early: number;
    latency_p50_ms: number;
    latency_p95_ms: number;
    latency_p99_ms: number;
    latency_max_ms: number;
    drain_ms: number;
    /** Each client that never read: how its connection ended (null: the service still held it open). */
    stalled: StalledReport[];
    errors: string[];
  };
  /** Resident memory of the service process, sampled every 500 ms. */
  service_rss_mb: { start: number; peak: number; end: number; samples: number[] };
};

export function loadOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): LoadOptions {
  const n = (name: string, fallback: number, min = 1) => {
    const v = Number(env[name] ?? fallback);
    return Number.isFinite(v) && v >= min ? v : fallback;
  };
  return {
    seconds: n('BENCH_LOAD_SECONDS', 60),
    rate: n('BENCH_LOAD_RATE', 2000),
    batch: Math.round(n('BENCH_LOAD_BATCH', 100)),
    senders: Math.round(n('BENCH_LOAD_SENDERS', 4)),
    readers: Math.round(n('BENCH_LOAD_READERS', 4, 0)),
    clients: Math.round(n('BENCH_LOAD_CLIENTS', 25, 0)),
    stalled: Math.round(n('BENCH_LOAD_STALLED', 1, 0)),
    projects: Math.round(n('BENCH_LOAD_PROJECTS', 1)),
  };
}

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const round1 = (n: number) => Number(n.toFixed(1));

function percentiles(times: number[]): Percentiles {
  const s = [...times].sort((a, b) => a - b);
  return {
    count: s.length,
    p50_ms: round1(percentile(s, 0.5)),
    p95_ms: round1(percentile(s, 0.95)),
    p99_ms: round1(percentile(s, 0.99)),
  };
}

/** The share of each type in a batch: mostly logs, as services send. */
const MIX = { logs: 0.5, spans: 0.25, actions: 0.15, issues: 0.1 };
const SEVERITIES = ['info', 'info', 'info', 'warn', 'error'] as const;
const REGIONS = ['eu-west', 'us-east', 'ap-south'];
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export type Sent = {
  logs: string[];
  spans: string[];
  actions: string[];
  issues: string[];
  trace: string;
};

/** One batch of the mix; the spans of a batch form one trace (read back by its id). */
export function buildBatch(size: number, release: string, seq: number) {
  const at = new Date().toISOString();
  const count = (share: number) => Math.max(1, Math.round(size * share));
  const trace = hex(16);
  const root = hex(8);
  const sent: Sent = {
    logs: Array.from({ length: count(MIX.logs) }, () => randomUUID()),
    spans: Array.from({ length: count(MIX.spans) }, () => randomUUID()),
    actions: Array.from({ length: count(MIX.actions) }, () => randomUUID()),
    issues: Array.from({ length: count(MIX.issues) }, () => randomUUID()),
    trace,
  };
  const body = {
    release,
    environment: 'load',
    service_name: 'load-api',
    logs: sent.logs.map((id, i) => ({
      id,
      occurred_at: at,
      severity: SEVERITIES[i % SEVERITIES.length],
      message: `GET /api/cart/${seq}-${i} ${i % 7 === 0 ? 500 : 200} in ${(i % 97) + 3}ms`,
      trace_id: trace,
      attributes: {
        http: { method: 'GET', status_code: i % 7 === 0 ? 500 : 200 },
        region: REGIONS[i % REGIONS.length],
      },
    })),
    trace_spans: sent.spans.map((id, i) => ({
      id,
      trace_id: trace,
      span_id: i === 0 ? root : hex(8),
      parent_span_id: i === 0 ? null : root,
      name: i === 0 ? 'GET /api/cart/{id}' : `SELECT carts ${i}`,
      operation: i === 0 ? 'http.server' : 'db.query',
      started_at: at,
      duration_ms: 3 + (i % 40),
      status: i % 11 === 0 ? 'error' : 'ok',
    })),
    actions: sent.actions.map((id, i) => ({
      id,
      occurred_at: at,
      name: ['Home', 'Product', 'Add to cart', 'Checkout'][i % 4],
      kind: i % 4 === 0 ? 'page_view' : 'interaction',
      distinct_id: `user-${seq % 500}`,
      session_id: `session-${seq}`,
    })),
    issues: sent.issues.map((id, i) => ({
      id,
      occurred_at: at,
      severity: 'error',
      message: `Cart ${seq}-${i} could not be priced`,
      exception: { type: 'PricingError', value: 'no price for sku' },
      // One issue per event, so the feed's issue names the event it carries.
      fingerprint: `${ISSUE_FINGERPRINT_PREFIX}${id}`,
      trace_id: trace,
    })),
  };
  return { body: JSON.stringify(body), sent };
}

export type Tally = { errors: Record<string, number> };
export function countError(t: Tally, where: string, status: number | string, code = '') {
  const key = `${where} ${status}${code ? ` ${code}` : ''}`;
  t.errors[key] = (t.errors[key] ?? 0) + 1;
}
export async function errorCode(res: Response): Promise<string> {
  try {
    return String(((await res.json()) as { code?: unknown }).code ?? '');
  } catch {
    return '';
  }
}

/** RSS of the service: the largest process in the tree under the pid we started (tsx runs it as a child). */
function treeRssMb(pid: number): number {
  let max = 0;
  const visit = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      max = Math.max(max, kb / 1024);
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        const children = fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8');
        for (const c of children.split(' ').filter(Boolean)) visit(Number(c));
      }
    } catch {
      // The process ended between listing and reading.
    }
  };
  visit(pid);
  return Math.round(max);
}

/** CPU seconds (user + system) used so far by the process tree under `pid`. */
export function treeCpuSeconds(pid: number): number {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  const visit = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / tick;
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        const children = fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8');
        for (const c of children.split(' ').filter(Boolean)) visit(Number(c));
      }
    } catch {
      // The process ended between listing and reading.
    }
  };
  visit(pid);
  return total;
}

function startFeedClients(): ChildProcess {
  return fork(path.join(import.meta.dirname, 'load-feed-clients.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function nextMessage<T>(child: ChildProcess, accept: (m: unknown) => m is T): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      if (!accept(m)) return;
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`feed clients exited with ${code}`)));
  });
}
const isReady = (m: unknown): m is FeedReady =>
  typeof m === 'object' && m !== null && ['ready', 'failed'].includes((m as FeedReady).t);
const isReport = (m: unknown): m is FeedReport =>
  typeof m === 'object' && m !== null && (m as FeedReport).t === 'report';

/** The list routes the console reads while telemetry arrives. */
export function readRoutes(projectId: string): { route: string; path: string }[] {
  const p = `project_id=${projectId}`;
  const filter = encodeURIComponent(
    JSON.stringify([{ path: '/region', type: 'string', operator: 'eq', value: 'eu-west' }]),
  );
  return [
    { route: 'logs', path: `/api/logs?${p}&since=1h&limit=100` },
    { route: 'logs severity=error', path: `/api/logs?${p}&since=1h&severity=error&limit=100` },
    { route: 'logs attribute filter', path: `/api/logs?${p}&since=1h&attribute_filters=${filter}` },
    { route: 'issues', path: `/api/telemetry/issues?${p}&limit=100` },
    { route: 'traces', path: `/api/telemetry/traces?${p}&since=1h&limit=50` },
    { route: 'releases', path: `/api/telemetry/releases?${p}` },
  ];
}

/** Every id of a cursor-paged list (all pages), or the first failure's status. */
async function readAllIds(
  service: BenchService,
  pathAndQuery: string,
  key: string,
  idOf: (row: Record<string, unknown>) => string,
  tally: Tally,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor = '';
  for (;;) {
    const res = await fetch(`${service.baseUrl}${pathAndQuery}&pagination=cursor${cursor}`, {
      headers: { Authorization: `Bearer ${service.creds.account_token}` },
    });
    if (!res.ok) {
      countError(tally, `read back ${key}`, res.status, await errorCode(res));
      return ids;
    }
    const page = (await res.json()) as Record<string, unknown>;
    for (const row of (page[key] ?? []) as Record<string, unknown>[]) ids.add(idOf(row));
    const next = page.next_cursor as Record<string, string> | null;
    if (!next) return ids;
    cursor = `&cursor_time=${encodeURIComponent(next.time ?? '')}&cursor_id=${encodeURIComponent(next.id ?? '')}`;
  }
}

export async function measureLoad(options: LoadOptions): Promise<LoadReport> {
  const service = await spawnBenchService();
  const feed = startFeedClients();
  const projects = service.creds.projects.slice(0, options.projects);
  const project = projects[0];
  if (!project || projects.length < options.projects)
    throw new Error(`the bench service has fewer than ${options.projects} projects`);
  const release = `load@${hex(4)}`;
  const runStart = new Date(Date.now() - 60_000).toISOString();
  const tally: Tally = { errors: {} };
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(treeRssMb(service.pid)), 500);
  const feedSend = (m: FeedCommand) => feed.send(m);

  try {
    feedSend({
      t: 'init',
      baseUrl: service.baseUrl,
      token: service.creds.account_token,
      projectIds: projects.map((p) => p.id),
      clients: options.clients,
      stalled: options.stalled,
    });
    const ready = await nextMessage(feed, isReady);
    if (ready.t === 'failed') throw new Error(`feed clients: ${ready.error}`);
    rss.push(treeRssMb(service.pid));
    const rssStart = rss[rss.length - 1] ?? 0;
    const cpuStart = treeCpuSeconds(service.pid);

    const acked: (Sent & { projectId: string })[] = [];
    const ingestTimes: number[] = [];
    const readTimes = new Map<string, number[]>();
    let sent = 0;
    let batchSeq = 0;
    const started = now();
    const end = started + options.seconds * 1000;
    // Each sender keeps its own schedule; one that falls behind sends at once until caught up.
    const interval = (options.batch * options.senders * 1000) / options.rate;

    const sender = async (s: number) => {
      const to = projects[s % projects.length] ?? project;
      for (let k = 0; ; k++) {
        const due = started + (k + s / options.senders) * interval;
        if (due >= end || now() >= end) return;
        if (due > now()) await sleep(due - now());
        const seq = batchSeq++;
        const { body, sent: ids } = buildBatch(options.batch, release, seq);
        const all = [...ids.logs, ...ids.spans, ...ids.actions, ...ids.issues];
        sent += all.length;
        const t = now();
        feedSend({ t: 'sent', batch: seq, ids: all, at: t });
        let ok = false;
        try {
          const res = await fetch(`${service.baseUrl}/api/telemetry/ingest`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${to.ingest_key}`,
              'Content-Type': 'application/json',
            },
            body,
          });
          ok = res.ok;
          if (ok) {
            const counts = (await res.json()) as { already_accepted: number };
            if (counts.already_accepted !== 0) countError(tally, 'ingest', 'already_accepted');
            acked.push({ ...ids, projectId: to.id });
          } else countError(tally, 'ingest', res.status, await errorCode(res));
        } catch (e) {
          countError(tally, 'ingest', 'network', e instanceof Error ? e.message : String(e));
        }
        ingestTimes.push(now() - t);
        feedSend({ t: 'result', batch: seq, ok });
      }
    };

    const routes = readRoutes(project.id);
    const reader = async (r: number) => {
      for (let k = r; now() < end; k++) {
        const route = routes[k % routes.length];
        if (!route) return;
        const t = now();
        try {
          const res = await fetch(`${service.baseUrl}${route.path}`, {
            headers: { Authorization: `Bearer ${service.creds.account_token}` },
          });
          if (res.ok) await res.arrayBuffer();
          else countError(tally, `GET ${route.route}`, res.status, await errorCode(res));
        } catch (e) {
          countError(tally, `GET ${route.route}`, 'network', e instanceof Error ? e.message : '');
        }
        const times = readTimes.get(route.route) ?? [];
        times.push(now() - t);
        readTimes.set(route.route, times);
      }
    };

    await Promise.all([
      ...Array.from({ length: options.senders }, (_, s) => sender(s)),
      ...Array.from({ length: options.readers }, (_, r) => reader(r)),
    ]);
    const seconds = (now() - started) / 1000;
    const cpuSeconds = treeCpuSeconds(service.pid) - cpuStart;

    // Delivery: every client must get every acknowledged event; wait while messages still arrive.
    feedSend({ t: 'finish', quietMs: 10_000 });
    const feedReport = await nextMessage(feed, isReport);

    // Loss: every acknowledged id must be readable through the list routes.
    const readback: Tally = { errors: {} };
    const byId = (row: Record<string, unknown>) => String(row.id);
    const logs = new Set<string>();
    const actions = new Set<string>();
    const issues = new Set<string>();
    for (const p of projects) {
      const scope = `project_id=${p.id}&release=${encodeURIComponent(release)}`;
      const since = encodeURIComponent(runStart);
      const add = (into: Set<string>) => (found: Set<string>) => {
        for (const id of found) into.add(id);
      };
      add(logs)(
        await readAllIds(
          service,
          `/api/logs?${scope}&status=all&since=${since}&limit=1000`,
          'logs',
          byId,
          readback,
        ),
      );
      add(actions)(
        await readAllIds(
          service,
          `/api/telemetry/actions?${scope}&since=${since}&limit=1000`,
          'actions',
          byId,
          readback,
        ),
      );
      add(issues)(
        await readAllIds(
          service,
          `/api/telemetry/issues?${scope}&limit=1000`,
          'issues',
          (row) => String(row.fingerprint).slice(ISSUE_FINGERPRINT_PREFIX.length),
          readback,
        ),
      );
    }
    let lostSpans = 0;
    const traceQueue = [...acked];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let b = traceQueue.pop(); b; b = traceQueue.pop()) {
          const res = await fetch(
            `${service.baseUrl}/api/telemetry/traces/${b.trace}?project_id=${b.projectId}`,
            { headers: { Authorization: `Bearer ${service.creds.account_token}` } },
          );
          if (!res.ok) {
            countError(readback, 'read back trace', res.status, await errorCode(res));
            lostSpans += b.spans.length;
            continue;
          }
          const spans = new Set(((await res.json()) as { id: string }[]).map((x) => x.id));
          lostSpans += b.spans.filter((id) => !spans.has(id)).length;
        }
      }),
    );
    const missing = (ids: Set<string>, pick: (s: Sent) => string[]) =>
      acked.reduce((n, b) => n + pick(b).filter((id) => !ids.has(id)).length, 0);
    const lost = {
      logs: missing(logs, (b) => b.logs),
      spans: lostSpans,
      actions: missing(actions, (b) => b.actions),
      issues: missing(issues, (b) => b.issues),
    };

    rss.push(treeRssMb(service.pid));
    const acknowledged = acked.reduce(
      (n, b) => n + b.logs.length + b.spans.length + b.actions.length + b.issues.length,
      0,
    );
    const clients: FeedClientReport[] = feedReport.clients;
    return {
      measured_at: new Date().toISOString(),
      options,
      seconds: round1(seconds),
      events_sent: sent,
      events_acknowledged: acknowledged,
      events_per_second: Math.round(acknowledged / seconds),
      service_cpu_seconds: round1(cpuSeconds),
      service_cpu_ms_per_1000_events: round1((cpuSeconds * 1e6) / Math.max(1, acknowledged)),
      ingest: percentiles(ingestTimes),
      reads: routes.map((r) => ({ route: r.route, ...percentiles(readTimes.get(r.route) ?? []) })),
      errors: tally.errors,
      error_count: Object.values(tally.errors).reduce((a, b) => a + b, 0),
      lost,
      lost_count: lost.logs + lost.spans + lost.actions + lost.issues,
      readback_errors: readback.errors,
      feed: {
        clients: clients.length,
        expected_per_client: feedReport.expected,
        delivered_per_client: clients.map((c) => c.delivered),
        missing_per_client: clients.map((c) => c.missing),
        missing_total: clients.reduce((n, c) => n + c.missing, 0),
        duplicates_total: clients.reduce((n, c) => n + c.duplicates, 0),
        closed_early: clients.filter((c) => c.closed !== null).length,
        latency_p50_ms: feedReport.latency_ms.p50,
        latency_p95_ms: feedReport.latency_ms.p95,
        latency_p99_ms: feedReport.latency_ms.p99,
        latency_max_ms: feedReport.latency_ms.max,
        drain_ms: feedReport.drain_ms,
        stalled: feedReport.stalled,
        errors: feedReport.errors,
      },
      service_rss_mb: {
        start: rssStart,
        peak: Math.max(...rss),
        end: rss[rss.length - 1] ?? 0,
        samples: rss.filter((_, i) => i % 10 === 0),
      },
    };
  } finally {
    clearInterval(sampler);
    if (feed.exitCode === null) feed.kill('SIGTERM');
    await service.stop();
  }
}

/** The report as `npm run bench -- load` prints it. */
export function printLoad(r: LoadReport): void {
  const o = r.options;
  console.log(
    `Load on loopback (${r.seconds} s: ${o.senders} senders${o.projects > 1 ? ` over ${o.projects} projects` : ''} at ${o.rate.toLocaleString('en')} events/s in batches of ${o.batch}, ${o.readers} readers, ${o.clients} live-feed clients and ${o.stalled} that never reads)`,
  );
  console.log(
    `  ingest: ${r.events_acknowledged.toLocaleString('en')} of ${r.events_sent.toLocaleString('en')} events acknowledged, ${r.events_per_second.toLocaleString('en')} events/s; request p50 ${r.ingest.p50_ms} ms, p95 ${r.ingest.p95_ms} ms, p99 ${r.ingest.p99_ms} ms (${r.ingest.count} requests)`,
  );
  for (const x of r.reads)
    console.log(
      `  GET ${x.route.padEnd(24)} p50 ${String(x.p50_ms).padStart(7)} ms  p95 ${String(x.p95_ms).padStart(7)} ms  p99 ${String(x.p99_ms).padStart(7)} ms  (${x.count} requests)`,
    );
  const f = r.feed;
  console.log(
    `  live feed: ${f.clients} clients, ${f.expected_per_client.toLocaleString('en')} events expected each; delivered per client ${Math.min(...f.delivered_per_client)}–${Math.max(...f.delivered_per_client)}; missing per client [${f.missing_per_client.join(', ')}]; duplicates ${f.duplicates_total}; closed early ${f.closed_early}`,
  );
  console.log(
    `  live feed latency (send → client receipt): p50 ${f.latency_p50_ms} ms, p95 ${f.latency_p95_ms} ms, p99 ${f.latency_p99_ms} ms, max ${f.latency_max_ms} ms; drained ${f.drain_ms} ms after the last send`,
  );
  if (f.stalled.length > 0)
    console.log(
      `  clients that never read: ${f.stalled.map((c) => `${c.received.toLocaleString('en')} messages, then ${c.closed ? `closed with ${c.closed.code} (${c.closed.reason})` : 'still open'}`).join('; ')}`,
    );
  console.log(
    `  service CPU: ${r.service_cpu_seconds} s in ${r.seconds} s (${r.service_cpu_ms_per_1000_events} ms per 1,000 events acknowledged, reads and feed included)`,
  );
  console.log(
    `  service RSS: ${r.service_rss_mb.start} MB at start, peak ${r.service_rss_mb.peak} MB, ${r.service_rss_mb.end} MB at the end`,
  );
  console.log(
    `  errors: ${r.error_count}${
      r.error_count
        ? ` (${Object.entries(r.errors)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; ')})`
        : ''
    }; lost events: ${r.lost_count} (logs ${r.lost.logs}, spans ${r.lost.spans}, actions ${r.lost.actions}, issues ${r.lost.issues})${Object.keys(r.readback_errors).length ? `; read-back failures ${JSON.stringify(r.readback_errors)}` : ''}${f.errors.length ? `; feed errors ${f.errors.join('; ')}` : ''}`,
  );
}
