/** `npm run bench`: measures, prints a summary and writes bench/results/*.json. Never asserts. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { measureBundle } from './bundle-size';
import { measureIngest } from './ingest-throughput';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'bench/results');
fs.mkdirSync(results, { recursive: true });
const write = (name: string, data: unknown) =>
  fs.writeFileSync(path.join(results, name), `${JSON.stringify(data, null, 2)}\n`);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

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
console.log(`  initial CSS (gzip): ${kb(bundle.initial_css_gzip_bytes)}`);
for (const c of bundle.chunks.filter((x) => !x.initial))
  console.log(`  chunk ${c.file}: ${kb(c.gzip_bytes)}`);

const ingest = await measureIngest([100, 1000], 100_000);
write('ingest.json', ingest);
console.log('Ingest (logs through POST /api/telemetry/ingest, embedded store)');
for (const r of ingest) {
  console.log(
    `  batches of ${r.batch_size}: ${r.events_per_second.toLocaleString('en')} events/s (${r.events.toLocaleString('en')} events in ${r.seconds} s; batch p50 ${r.batch_p50_ms} ms, p95 ${r.batch_p95_ms} ms)`,
  );
}
console.log(`wrote ${path.relative(root, results)}/{bundle,ingest}.json`);
