// `npm run dev`: the service (restarting on change) and Vite with HMR, which proxies
// /api (WebSocket included), /v1 and /healthz to the service.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { LOOKOUT_DEMO: '1', ...process.env };

const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env,
  }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit', env }),
];
const stop = (code) => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(code);
};
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(0));
for (const c of children) c.on('exit', (code) => stop(code ?? 0));
