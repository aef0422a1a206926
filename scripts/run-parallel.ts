import { spawn } from 'node:child_process';

/**
 * `tsx scripts/run-parallel.ts a b c`: runs `npm run a`, `npm run b` and `npm run c` at once
 * and fails when any of them fails. For the checks of `npm test` that each use one core
 * (generation check, typecheck, lint, build): run side by side they take the time of the
 * longest. Each script's output is printed whole when it ends, so the logs do not interleave.
 */
type Outcome = { script: string; code: number; output: string; seconds: number };

function run(script: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) =>
      resolve({ script, code: code ?? 1, output, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: tsx scripts/run-parallel.ts <npm script>...\n');
  process.exit(2);
}
const outcomes = await Promise.all(
  scripts.map((s) =>
    run(s).then((o) => {
      const verdict = o.code === 0 ? 'passed' : `FAILED (exit ${o.code})`;
      process.stdout.write(`\n── npm run ${o.script}: ${verdict} in ${o.seconds.toFixed(0)} s\n`);
      process.stdout.write(o.output);
      return o;
    }),
  ),
);
const failed = outcomes.filter((o) => o.code !== 0).map((o) => o.script);
if (failed.length > 0) {
  process.stderr.write(`\nFailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
