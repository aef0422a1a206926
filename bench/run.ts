/** `npm run bench`: measures, prints a summary and writes bench/results/*.json. Never asserts. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { measureBundle } from './bundle-size';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'bench/results');
fs.mkdirSync(results, { recursive: true });

execFileSync(
  process.execPath,
  [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
const bundle = measureBundle(path.join(root, 'dist'));
fs.writeFileSync(path.join(results, 'bundle.json'), `${JSON.stringify(bundle, null, 2)}\n`);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`initial JS (gzip):  ${kb(bundle.initial_js_gzip_bytes)}`);
console.log(`initial CSS (gzip): ${kb(bundle.initial_css_gzip_bytes)}`);
for (const c of bundle.chunks.filter((x) => !x.initial))
  console.log(`  chunk ${c.file}: ${kb(c.gzip_bytes)}`);
console.log(`wrote ${path.relative(root, path.join(results, 'bundle.json'))}`);
