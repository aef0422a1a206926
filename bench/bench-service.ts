/**
 * The service as benchmarks see it: its own process (so the load generator does not share
 * its event loop), a temporary data directory, the demo accounts, and no rate limit or
 * quota in the way. Prints one JSON line `{port, dir}` once it accepts requests.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { testConfig } from '../server/core/config';
import { listen } from '../server/listen';
import { createService } from '../server/service';
import { benchOnClickHouse } from './spawn-bench-service';

const dir =
  process.env.LOOKOUT_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-bench-'));
const unlimited = {
  issue_events: 1e12,
  trace_spans: 1e12,
  log_bytes: 1e15,
  metric_bytes: 1e15,
  retention_days: 30,
};
const service = await createService(
  testConfig(dir, {
    demo: true,
    // Browser benchmarks of whole pages open them on the demo world as `npm start` seeds it.
    demoScale: Number(process.env.LOOKOUT_DEMO_SCALE ?? 0),
    // bench/store-comparison.ts runs the same service on PostgreSQL.
    databaseUrl: process.env.DATABASE_URL || null,
    // As the service chooses: ClickHouse (embedded, or CLICKHOUSE_URL), PostgreSQL's own
    // telemetry with DATABASE_URL unless LOOKOUT_TELEMETRY=clickhouse.
    telemetry: benchOnClickHouse()
      ? {
          engine: 'clickhouse',
          url: process.env.CLICKHOUSE_URL || null,
          database: 'lookout',
          embeddedPath: path.join(dir, 'clickhouse'),
        }
      : { engine: 'state' },
    ingestRate: { perSecond: 1e9, burst: 1e9 },
    planQuotas: { free: unlimited, pro: unlimited, scale: unlimited },
    // Browser benchmarks serve the built console from the same origin.
    staticDir: process.env.LOOKOUT_STATIC_DIR ? path.resolve(process.env.LOOKOUT_STATIC_DIR) : null,
  }),
);
const running = await listen(service.app, 0, '127.0.0.1');
const diagnostics = process.env.BENCH_DIAGNOSTICS === '1' ? await startDiagnostics() : null;
process.stdout.write(
  `${JSON.stringify({ port: running.port, dir, ...(diagnostics ? { diagnostics_port: diagnostics } : {}) })}\n`,
);

/**
 * The soak's view into this process (BENCH_DIAGNOSTICS=1 only, loopback, a port of its own):
 * `GET /memory` collects garbage, then answers memory, open descriptors and live connections;
 * `POST /heap-snapshot` writes a snapshot into the data directory. Part of the benchmark, never
 * of the service, so nothing of it is in the public API.
 */
/**
 * What the RSS is made of, from /proc/self/smaps: anonymous memory (V8's heaps, SQLite's page
 * cache, every other malloc), the SQLite WAL index (`-shm`, mapped) and other mapped files
 * (the node binary, shared libraries).
 */
function rssParts(): { rss_anonymous: number; rss_wal_index: number; rss_files: number } {
  let anonymous = 0;
  let walIndex = 0;
  let files = 0;
  let mapping = '';
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      mapping = head[1] ?? '';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      const bytes = Number(rss[1]) * 1024;
      if (mapping.endsWith('-shm')) walIndex += bytes;
      else if (mapping.startsWith('/')) files += bytes;
      continue;
    }
    const anon = /^Anonymous:\s+(\d+) kB/.exec(line);
    if (anon) anonymous += Number(anon[1]) * 1024;
  }
  return { rss_anonymous: anonymous, rss_wal_index: walIndex, rss_files: files };
}

/** Open descriptors by what they point at: `socket`, `anon_inode:[eventfd]`, a file's path. */
function fdKinds(): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/self/fd/${fd}`).replace(/:\[\d+\]$/, '');
    } catch {
      continue; // the descriptor of the listing itself, closed by now
    }
    kinds[target] = (kinds[target] ?? 0) + 1;
  }
  return kinds;
}

async function startDiagnostics(): Promise<number> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/memory') {
      // After a full collection the heap is what is still referenced: the figure a leak raises.
      gc();
      const m = process.memoryUsage();
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          rss: m.rss,
          ...rssParts(),
          heap_used: m.heapUsed,
          heap_total: m.heapTotal,
          external: m.external,
          array_buffers: m.arrayBuffers,
          fds: fs.readdirSync('/proc/self/fd').length,
          fd_kinds: fdKinds(),
          feed_connections: service.deps.feed.connectionCount,
        }),
      );
    } else if (req.method === 'POST' && req.url === '/heap-snapshot') {
      gc();
      res.end(v8.writeHeapSnapshot(path.join(dir, `heap-${Date.now()}.heapsnapshot`)));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
process.on('SIGTERM', () => {
  void running
    .close()
    .then(() => service.store.close())
    .then(() => process.exit(0));
});
