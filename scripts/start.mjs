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
const tsx = path.join(root, 'node_modules/.bin/tsx');
const child = spawn(tsx, [path.join(root, 'server/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env,
});

// `npm start -- --live [--rate N]`: once the service answers, also run the demo's live
// trickle against it (server/demo/demo-cli.ts) so the live feed has something to show.
const args = process.argv.slice(2);
let trickle = null;
if (args.includes('--live')) {
  const url = `http://localhost:${process.env.PORT ?? '8080'}`;
  void (async () => {
    while (child.exitCode === null) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        // Not listening yet: the first start seeds the demo world before it listens.
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (child.exitCode !== null) return;
    const extra = args.includes('--url') ? [] : ['--url', url];
    trickle = spawn(tsx, [path.join(root, 'server/demo/demo-cli.ts'), ...args, ...extra], {
      cwd: root,
      stdio: 'inherit',
      env,
    });
  })();
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    trickle?.kill(sig);
    child.kill(sig);
  });
}
child.on('exit', (code) => {
  trickle?.kill('SIGTERM');
  process.exit(code ?? 0);
});
