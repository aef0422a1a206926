/**
 * Ingest throughput on the embedded store: log events per second through the real HTTP
 * route (auth, validation, dedupe, quota, transaction, feed), in batches of 100 and 1,000.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { activeParts } from './log-reads';
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
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

function logBatch(size: number, t0: number) {
  return JSON.stringify({
    release: 'bench@1.0.0',
    environment: 'bench',
    service_name: 'bench-api',
    logs: Array.from({ length: size }, (_, i) => ({
      id: randomUUID(),
      occurred_at: new Date(t0 + i).toISOString(),
      severity: i % 10 === 0 ? 'warn' : 'info',
      message: `GET /api/cart/${i} 200 in ${(i % 97) + 3}ms`,
      attributes: {
        http: { method: 'GET', status_code: 200, route: '/api/cart/{id}' },
        user_tier: 'pro',
        cached: i % 2 === 0,
      },
    })),
  });
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
    for (const size of batchSizes) {
      const batches = Math.max(1, Math.round(eventsPerSize / size));
      const bodies = Array.from({ length: batches }, (_, b) =>
        logBatch(size, Date.now() - b * size),
      );
      const times: number[] = [];
      const started = performance.now();
      for (const body of bodies) {
        const t = performance.now();
        const res = await fetch(url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body,
        });
        if (res.status !== 200)
          throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        times.push(performance.now() - t);
      }
      const seconds = (performance.now() - started) / 1000;
      times.sort((a, b) => a - b);
      reports.push({
        concurrency: CONCURRENCY,
        batch_size: size,
        batches,
        events: batches * size,
        seconds: Number(seconds.toFixed(3)),
        events_per_second: Math.round((batches * size) / seconds),
        batch_p50_ms: Number(percentile(times, 0.5).toFixed(1)),
        batch_p95_ms: Number(percentile(times, 0.95).toFixed(1)),
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
