import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './database';

/**
 * Moves WAL checkpoints off the request path. SQLite normally checkpoints inside the commit
 * that crosses 1,000 WAL pages, so one ingest request in a few pays for copying and syncing
 * everyone's pages. Here a worker thread with its own connection checkpoints (PASSIVE, so it
 * never blocks writers) every `intervalMs`, on the other core. The commit-time checkpoint
 * stays as a backstop at a much larger WAL, in case the worker cannot keep up.
 */
export function startBackgroundCheckpoints(
  db: Db,
  file: string,
  intervalMs = 1000,
): () => Promise<void> {
  db.pragma('wal_autocheckpoint = 50000');
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.modulePath);
     const db = new Database(workerData.file);
     db.pragma('busy_timeout = 1000');
     const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
     const timer = setInterval(checkpoint, workerData.intervalMs);
     parentPort.on('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });`,
    { eval: true, workerData: { modulePath, file, intervalMs } },
  );
  worker.unref();
  // Stopping asks for one last checkpoint and waits until the worker has closed its connection.
  return () =>
    new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      // Unref'd so it never holds a process open, but closing must wait for it: without this a
      // script whose last step is close() ends with its promise unsettled.
      worker.ref();
      worker.postMessage('stop');
    });
}
