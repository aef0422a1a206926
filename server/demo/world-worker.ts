/**
 * Worker thread entry of `startDemoWorld`: generates the demo world and posts each stage's
 * batches, encoded, as soon as the stage is made (their buffers transferred, not copied), then
 * the world's summary. The service's main thread meanwhile sends what has arrived.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { encodeBatch } from './encoded-batch';
import { demoWorldStages, type DemoWorldOptions } from './generate-world';
import type { WorldMessage } from './world-message';

const port = parentPort;
if (!port) throw new Error('world-worker.ts runs as a worker thread');
const post = (message: WorldMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

const stages = demoWorldStages(workerData as DemoWorldOptions);
for (;;) {
  const next = stages.next();
  if (next.done) {
    post({ type: 'done', summary: next.value });
    break;
  }
  for (const planned of next.value.batches) {
    const batch = encodeBatch(planned);
    post({ type: 'batch', batch }, [batch.body.buffer]);
  }
}
