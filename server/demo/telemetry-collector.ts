import type {
  ActionItemInput,
  IssueItemInput,
  LogItemInput,
  MetricItemInput,
  SpanItemInput,
} from '../ingest/item-schemas';
import type { ProjectKey, Sdk } from './world-model';

/**
 * Where generators put what they make: items of the ingest routes' own schemas, kept apart by
 * stream, project and SDK because one request carries one project's key and one SDK.
 */
export const STREAMS = ['issues', 'logs', 'trace_spans', 'actions', 'metrics'] as const;
export type Stream = (typeof STREAMS)[number];

export type StreamItem = {
  issues: IssueItemInput;
  logs: LogItemInput;
  trace_spans: SpanItemInput;
  actions: ActionItemInput;
  metrics: MetricItemInput;
};

export type Bucket<S extends Stream = Stream> = {
  stream: S;
  project: ProjectKey;
  sdk: Sdk;
  items: StreamItem[S][];
};

export type Collector = {
  add<S extends Stream>(stream: S, project: ProjectKey, sdk: Sdk, item: StreamItem[S]): void;
  /** In the order buckets were first used, so the output is deterministic. */
  buckets(): Bucket[];
  count(stream: Stream): number;
  /** No item of `stream` may be added any more (its requests are made); adding one throws. */
  seal(stream: Stream): void;
};

export function createCollector(): Collector {
  const buckets = new Map<string, Bucket>();
  const counts: Record<Stream, number> = {
    issues: 0,
    logs: 0,
    trace_spans: 0,
    actions: 0,
    metrics: 0,
  };
  const sealed = new Set<Stream>();
  return {
    add(stream, project, sdk, item) {
      if (sealed.has(stream)) throw new Error(`demo world: ${stream} added after it was sent`);
      const key = `${stream}|${project}|${sdk.name}@${sdk.version}`;
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { stream, project, sdk, items: [] };
        buckets.set(key, bucket);
      }
      (bucket.items as StreamItem[typeof stream][]).push(item);
      counts[stream]++;
    },
    buckets: () => [...buckets.values()],
    count: (stream) => counts[stream],
    seal: (stream) => void sealed.add(stream),
  };
}
