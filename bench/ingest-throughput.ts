/**
 * Ingest throughput on the default deployment (SQLite state, embedded ClickHouse telemetry):
 * log events per second through the real HTTP route (auth, validation, dedupe, quota,
 * ClickHouse insert, state transaction, feed) from two senders, in batches of 1,000 logs as
 * the logs and stores benches send them (issue 26's target) and in batches of 100; beside the
 * wall rate, the service's CPU time per 1,000 logs, which other work on the machine does not
 * change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { treeCpuSeconds } from './load';
import { activeParts, logsFor } from './log-reads';
import { spawnBenchService, benchOnClickHouse } from './spawn-bench-service';

export const CONCURRENCY = 2;

export type IngestReport = {
  concurrency: number;
  batch_size: number;
  batches: number;
  events: number;
  seconds: number;
  events_per_second: number;
  batch_p50_ms: number;
  batch_p95_ms: number;
  /** CPU time (user + system) of the service's processes per 1,000 events (absent before 2026-11-27). */
  service_cpu_ms_per_1000_events?: number;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** Request bodies of `size` logs each, `events` in all; built before the clock starts. */
function bodies(size: number, events: number, now: number): string[] {
  const logs = Math.max(1, Math.round(events / 1000));
  const out: string[] = [];
  for (let b = 0; b < logs; b++) {
    const all = logsFor(b, now, 3_600_000, 'live', logs);
    for (let from = 0; from < all.length; from += size)
      out.push(
        JSON.stringify({
          release: 'shop@3.1.0',
          environment: 'production',
          service_name: 'storefront-api',
          logs: all.slice(from, from + size),
        }),
      );
  }
  return out;
}

export async function measureIngest(
  batchSizes: number[],
  eventsPerSize: number,
): Promise<IngestReport[]> {
  const onClickHouse = benchOnClickHouse();
  const service = await spawnBenchService({}, { keep: onClickHouse });
  const key = service.creds.projects[0]?.ingest_key ?? '';
  const url = `${service.baseUrl}/api/telemetry/ingest`;
  const reports: IngestReport[] = [];
  try {
    // Each size sends logs of its own hour, so no batch repeats another's ids.
    let anchor = Date.now();
    for (const size of batchSizes) {
      const queue = bodies(size, eventsPerSize, anchor);
      anchor -= 3_600_000;
      const batches = queue.length;
      const times: number[] = [];
      let next = 0;
      const sender = async () => {
        for (let b = next++; b < batches; b = next++) {
          const t = performance.now();
          const res = await fetch(url, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: queue[b],
          });
          if (res.status !== 200)
            throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
          times.push(performance.now() - t);
        }
      };
      const cpuStart = treeCpuSeconds(service.pid);
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, sender));
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = treeCpuSeconds(service.pid) - cpuStart;
      times.sort((a, b) => a - b);
      const events = batches * size;
      reports.push({
        concurrency: CONCURRENCY,
        batch_size: size,
        batches,
        events,
        seconds: Number(seconds.toFixed(3)),
        events_per_second: Math.round(events / seconds),
        batch_p50_ms: Number(percentile(times, 0.5).toFixed(1)),
        batch_p95_ms: Number(percentile(times, 0.95).toFixed(1)),
        service_cpu_ms_per_1000_events: Math.round((cpuSeconds * 1e6) / events),
      });
    }
  } finally {
    await service.stop();
  }
  if (onClickHouse) {
    // Each batch inserted a part into the logs, the id ledger and each rollup: what merges
    // left of them once the service stopped.
    const parts = await activeParts(path.join(service.dir, 'clickhouse'));
    console.log(
      `  ClickHouse after the run: ${parts.parts} active parts, ${(parts.bytes / 1024 / 1024).toFixed(1)} MB`,
    );
    fs.rmSync(service.dir, { recursive: true, force: true });
  }
  return reports;
}
