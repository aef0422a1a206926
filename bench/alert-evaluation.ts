/**
 * Issue 29's bench: one evaluation pass of 1,000 alert rules over a large log store on the
 * default deployment (SQLite state, telemetry in the embedded ClickHouse engine). The store is
 * built as the stores comparison builds it (`seedLogs` through the ingest route of a bench
 * service, logs arriving `live` over 14 days), then the service stops and this process opens
 * the same data directory and runs the evaluator on a fixed clock: a first pass (each rule's
 * first window) and the next minute's pass (the steady state: one new window per rule).
 * `BENCH_ALERTS_DIR` keeps the seed, so a store is built once and read again later.
 *
 * Seeding 10M logs through ingest takes hours on this machine, so `copies` builds the larger
 * store from the seeded one written straight into ClickHouse: each copy is every seeded log
 * again under a new id, 1 ms later per copy (the value-hour and catalog views fill as on
 * ingest). The store then holds `copies` times the logs over the same 14 days, as the stores
 * comparison's 10M seed does; only the state tier's ingest rollups (usage, volume), which no
 * rule reads, stay those of the seed. The copies are bench/log-copies.ts's: one insert per
 * copy, or with BENCH_ALERTS_LAYOUT=hour every copy of an hour per insert in time order (the
 * parts of a store ingested live).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { evaluateDueRules } from '../server/alerts/alert-evaluator';
import { testConfig } from '../server/core/config';
import type { AlertKind, AlertRuleRecord } from '../server/core/store/state/alerts';
import type { Store } from '../server/core/store/store';
import { newId } from '../server/domain/secrets';
import { openStore } from '../server/store/open-store';
import { openClickHouse } from '../server/store/telemetry/clickhouse/clickhouse-db';
import { copyLogs, copyLogsByHour } from './log-copies';
import { PLANS, REGIONS, ROUTES, SEED_BATCH, seedLogs } from './log-reads';
import { spawnBenchService } from './spawn-bench-service';

const MINUTE = 60_000;

export type AlertPass = {
  /** Wall time of `evaluateDueRules` until no rule is due. */
  seconds: number;
  windows_recorded: number;
  firing_after: number;
};

export type AlertEvaluationReport = {
  logs: number;
  projects: number;
  rules: Record<AlertKind, number>;
  /** Seeding through the ingest route (summed over resumed runs), and whether this run seeded. */
  seed_seconds: number;
  seeded_now: boolean;
  /** Copies of the seed in the store (1: the seed alone), and the seconds writing them took. */
  copies: number;
  copy_seconds: number;
  interval_seconds: number;
  first_pass: AlertPass;
  next_pass: AlertPass;
  load_average: number[];
};

type Progress = {
  anchor: number;
  batches_done: number;
  seconds: number;
  /** Copies of the seed written into ClickHouse so far (1: the seed alone). */
  copies_done?: number;
  copy_seconds?: number;
};

/** Writes copies `from`..`copies - 1` of the seeded logs into the store at `chDir`. */
async function writeCopies(
  chDir: string,
  from: number,
  copies: number,
  onCopy: (done: number) => void,
): Promise<void> {
  const db = await openClickHouse({ url: null, database: 'lookout', embeddedPath: chDir });
  try {
    // BENCH_ALERTS_LAYOUT=hour lays the copies out as a live store's (bench/log-copies.ts).
    if (process.env.BENCH_ALERTS_LAYOUT === 'hour') {
      await copyLogsByHour(db, copies);
      onCopy(copies);
    } else await copyLogs(db, from, copies, onCopy);
  } finally {
    await db.close();
  }
}

/** 1,000 rules: mostly log rules over the seed's own words, some of every other kind. */
export function benchRules(
  projects: { id: string; organizationId: string }[],
  accountId: string,
  count: number,
  now: number,
): AlertRuleRecord[] {
  const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T;
  const logQuery = (i: number): Record<string, string> => {
    switch (i % 8) {
      case 0:
        return { severity: 'error' };
      case 1:
        return { search: pick(ROUTES, i).split('{')[0] ?? '/api' };
      case 2:
        return {
          attribute_filters: JSON.stringify([
            { path: '/http/status', type: 'number', operator: 'eq', value: 503 },
          ]),
        };
      case 3:
        return {
          severity: 'warning',
          attribute_filters: JSON.stringify([
            { path: '/region', type: 'string', operator: 'eq', value: pick(REGIONS, i) },
          ]),
        };
      case 4:
        return {
          attribute_filters: JSON.stringify([
            { path: '/user/plan', type: 'string', operator: 'eq', value: pick(PLANS, i) },
            { path: '/duration_ms', type: 'number', operator: 'gt', value: 1000 },
          ]),
        };
      case 5:
        return {
          attribute_filters: JSON.stringify([
            // A rare value: one user of 50,000.
            { path: '/user/id', type: 'string', operator: 'eq', value: `u-${(i * 7919) % 50_000}` },
          ]),
        };
      case 6:
        return { service_name: 'storefront-api', environment: 'production' };
      default:
        return {
          search: 'in 1',
          attribute_filters: JSON.stringify([
            { path: '/cache/hit', type: 'boolean', operator: 'eq', value: false },
          ]),
        };
    }
  };
  const conditionOf = (i: number): { kind: AlertKind; condition: Record<string, unknown> } => {
    // 85% log rules; metric, trace and issue rules 5% each.
    const slot = i % 20;
    if (slot === 17)
      return {
        kind: 'metric',
        condition: {
          query: { name: 'queue.depth', aggregation: 'max' },
          op: 'above',
          threshold: 100,
          window_minutes: 5,
        },
      };
    if (slot === 18)
      return {
        kind: 'trace',
        condition: {
          service: 'storefront-api',
          measure: pick(['error_share', 'p95'] as const, i),
          op: 'above',
          threshold: 0.5,
          window_minutes: 10,
        },
      };
    if (slot === 19)
      return {
        kind: 'issue',
        condition: {
          event: pick(['new_issue', 'event_count'] as const, i),
          threshold: 10,
          filters: {},
        },
      };
    return {
      kind: 'log',
      condition: {
        query: logQuery(i),
        op: 'above',
        threshold: pick([5, 50, 500], i),
        window_minutes: pick([1, 5, 15, 60], i),
      },
    };
  };
  return Array.from({ length: count }, (_, i) => {
    const project = pick(projects, i);
    return {
      id: newId(),
      projectId: project.id,
      organizationId: project.organizationId,
      name: `bench rule ${String(i)}`,
      ...conditionOf(i),
      notify: { inbox: { user_id: accountId }, webhook_ids: [] },
      resolveThreshold: null,
      enabled: true,
      mutedUntil: null,
      createdBy: accountId,
      createdAt: now,
      updatedAt: now,
      evaluatedThrough: null,
      firing: false,
      lastError: null,
    };
  });
}

async function pass(
  store: Store,
  now: number,
  projectIds: string[],
  ruleIds: Set<string>,
): Promise<AlertPass> {
  const started = performance.now();
  const windows = await evaluateDueRules({
    store,
    now: () => now,
    log: { error: (m: string) => console.error(`  ${m}`) },
    everyMs: MINUTE,
    holder: 'bench',
  });
  const seconds = (performance.now() - started) / 1000;
  // Incidents of this run's rules only (a kept store holds earlier runs' as history).
  const firing = await store.alerts.incidents({
    projectIds,
    ruleId: null,
    state: 'firing',
    after: null,
    limit: 5_000,
  });
  return {
    seconds: Math.round(seconds * 100) / 100,
    windows_recorded: windows,
    firing_after: firing.filter((i) => ruleIds.has(i.ruleId)).length,
  };
}

export async function measureAlertEvaluation(
  total: number,
  ruleCount = 1_000,
  copies = 1,
): Promise<AlertEvaluationReport> {
  const keep = process.env.BENCH_ALERTS_DIR;
  const seedHome = keep ? path.resolve(keep, `clickhouse-${String(total)}`) : null;
  const home = seedHome
    ? `${seedHome}${copies > 1 ? `x${String(copies)}` : ''}`
    : fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-bench-alerts-'));
  // A multiplied store starts from a copy of the kept seed when there is one.
  if (seedHome && home !== seedHome && !fs.existsSync(home) && fs.existsSync(seedHome))
    fs.cpSync(seedHome, home, { recursive: true });
  const dataDir = path.join(home, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const progressFile = path.join(home, 'progress.json');
  const progress: Progress = fs.existsSync(progressFile)
    ? (JSON.parse(fs.readFileSync(progressFile, 'utf8')) as Progress)
    : { anchor: Date.now(), batches_done: 0, seconds: 0 };
  const batches = Math.ceil(total / SEED_BATCH);
  const seededNow = progress.batches_done < batches;

  const service = await spawnBenchService({ LOOKOUT_DATA_DIR: dataDir }, { keep: true });
  const creds = service.creds;
  try {
    if (seededNow) {
      const before = progress.seconds;
      const started = performance.now();
      await seedLogs(service.baseUrl, creds.projects, total, {
        arrival: 'live',
        anchor: progress.anchor,
        from: progress.batches_done,
        onProgress: (done) => {
          progress.batches_done = done;
          progress.seconds = before + (performance.now() - started) / 1000;
          if (done % 100 === 0) fs.writeFileSync(progressFile, JSON.stringify(progress));
        },
      });
      progress.batches_done = batches;
      progress.seconds = before + (performance.now() - started) / 1000;
      fs.writeFileSync(progressFile, JSON.stringify(progress));
    }
  } finally {
    await service.stop();
  }

  // The service is gone: its embedded engine's directory is free for this process.
  if ((progress.copies_done ?? 1) < copies) {
    const started = performance.now();
    const before = progress.copy_seconds ?? 0;
    await writeCopies(
      path.join(dataDir, 'clickhouse'),
      progress.copies_done ?? 1,
      copies,
      (done) => {
        progress.copies_done = done;
        progress.copy_seconds = before + (performance.now() - started) / 1000;
        fs.writeFileSync(progressFile, JSON.stringify(progress));
      },
    );
  }
  const config = testConfig(dataDir, {
    telemetry: {
      engine: 'clickhouse',
      url: process.env.CLICKHOUSE_URL || null,
      database: 'lookout',
      embeddedPath: path.join(dataDir, 'clickhouse'),
    },
  });
  const store = await openStore(config);
  try {
    const account = await store.accounts.byEmail(creds.email);
    if (!account) throw new Error('the demo owner is missing from the bench store');
    const projects = await store.projects.readableBy(account.id);
    const projectIds = projects.map((p) => p.id);
    // A kept store may hold an earlier run's rules: each run evaluates its own thousand.
    for (;;) {
      const old = await store.alerts.rules({ projectIds, kind: null, after: null, limit: 500 });
      if (old.length === 0) break;
      for (const r of old) await store.alerts.deleteRule(r.id);
    }
    // Windows end on whole minutes at the seed's anchor, where the newest logs are.
    const now = Math.floor(progress.anchor / MINUTE) * MINUTE + 1_000;
    const rules = benchRules(projects, account.id, ruleCount, now);
    for (const r of rules) await store.alerts.createRule(r);
    const kinds: Record<AlertKind, number> = { log: 0, metric: 0, trace: 0, issue: 0 };
    for (const r of rules) kinds[r.kind] += 1;

    const ids = new Set(rules.map((r) => r.id));
    const first = await pass(store, now, projectIds, ids);
    const next = await pass(store, now + MINUTE, projectIds, ids);
    return {
      logs: Math.min(total, progress.batches_done * SEED_BATCH) * (progress.copies_done ?? 1),
      projects: projects.length,
      rules: kinds,
      seed_seconds: Math.round(progress.seconds),
      seeded_now: seededNow,
      copies: progress.copies_done ?? 1,
      copy_seconds: Math.round(progress.copy_seconds ?? 0),
      interval_seconds: MINUTE / 1000,
      first_pass: first,
      next_pass: next,
      load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
    };
  } finally {
    await store.close();
    if (!keep) fs.rmSync(home, { recursive: true, force: true });
  }
}
