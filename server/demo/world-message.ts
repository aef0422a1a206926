import type { EncodedBatch } from './encoded-batch';
import type { DemoWorldSummary } from './generate-world';

/** What the world worker posts: batches as they are made, then the world's summary. */
export type WorldMessage =
  { type: 'batch'; batch: EncodedBatch } | { type: 'done'; summary: DemoWorldSummary };
