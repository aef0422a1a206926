import type { ChildProcess } from 'node:child_process';
import readline from 'node:readline';

/**
 * The first line `child` prints on stdout: a service started on port 0 says there which port
 * it holds, so its starter never probes a port another process could take first. Rejects if
 * the child exits before, or says nothing within `timeoutMs`.
 */
export function readyLine(child: ChildProcess, what: string, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdout = child.stdout;
    if (!stdout) throw new Error(`${what}: its stdout is not piped`);
    const timer = setTimeout(() => {
      reject(new Error(`${what} said nothing within ${String(timeoutMs / 1000)} s`));
    }, timeoutMs);
    readline.createInterface({ input: stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${String(code ?? signal)}) before it was ready`));
    });
  });
}
