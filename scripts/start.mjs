// `npm start`: build the console when it is missing or older than its sources, then run the
// service with the demo world on (it seeds only into an empty data directory).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist/index.html');

function newestMtime(p) {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(p))
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'].map((p) =>
  path.join(root, p),
);
const stale =
  !fs.existsSync(built) ||
  sources.some((p) => fs.existsSync(p) && newestMtime(p) > fs.statSync(built).mtimeMs);
if (stale) {
  console.log('Building the console…');
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const env = { LOOKOUT_DEMO: '1', ...process.env };
const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'server/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
