import type { MetricItemInput } from '../ingest/item-schemas';
import type { Bucket, Stream, StreamItem } from './telemetry-collector';
import { STREAMS } from './telemetry-collector';
import type { ProjectKey, Sdk } from './world-model';

/**
 * Turns collected items into request bodies of the real ingest routes: native envelopes for
 * issues, logs, spans and actions, SDK batches (one release context each) for metrics. One
 * stream per request, so a stream that reaches its usage limit can stop alone.
 */
export const NATIVE_PATH = '/api/telemetry/ingest';
export const SDK_PATH = '/v1/events';

/** Items per request; issues carry stacks and breadcrumbs, so fewer of them. */
export const BATCH_SIZE: Record<Stream, number> = {
  issues: 500,
  logs: 1000,
  trace_spans: 1000,
  actions: 1000,
  metrics: 1000,
};

type NativeStream = Exclude<Stream, 'metrics'>;

export type NativeBody = { sdk: Sdk } & { [S in NativeStream]?: StreamItem[S][] };

export type SdkMetricEvent = Omit<MetricItemInput, 'release' | 'environment' | 'service_name'> & {
  type: 'metric';
};
export type SdkBody = {
  sdk: Sdk;
  context: { release: string; environment: string; service_name: string };
  events: SdkMetricEvent[];
};

export type PlannedBatch =
  | {
      project: ProjectKey;
      stream: NativeStream;
      items: number;
      path: typeof NATIVE_PATH;
      body: NativeBody;
    }
  | { project: ProjectKey; stream: 'metrics'; items: number; path: typeof SDK_PATH; body: SdkBody };

const timeOf = (item: StreamItem[Stream]): string =>
  'started_at' in item ? item.started_at : item.occurred_at;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function metricBatches(bucket: Bucket<'metrics'>): PlannedBatch[] {
  // An SDK sends one context per batch: group samples by release, environment and service.
  const groups = new Map<string, MetricItemInput[]>();
  for (const item of bucket.items) {
    const key = `${item.service_name ?? ''}|${item.environment ?? ''}|${item.release ?? ''}`;
    const list = groups.get(key) ?? [];
    list.push(item);
    groups.set(key, list);
  }
  const out: PlannedBatch[] = [];
  for (const items of groups.values()) {
    const first = items[0];
    if (!first) continue;
    const context = {
      release: first.release ?? '',
      environment: first.environment ?? '',
      service_name: first.service_name ?? '',
    };
    for (const chunk of chunks(items, BATCH_SIZE.metrics)) {
      out.push({
        project: bucket.project,
        stream: 'metrics',
        items: chunk.length,
        path: SDK_PATH,
        body: {
          sdk: bucket.sdk,
          context,
          events: chunk.map(({ release: _r, environment: _e, service_name: _s, ...rest }) => ({
            type: 'metric' as const,
            ...rest,
          })),
        },
      });
    }
  }
  return out;
}

/** Every bucket as requests, stream by stream, each bucket's items oldest first. */
export function planBatches(buckets: readonly Bucket[]): PlannedBatch[] {
  const out: PlannedBatch[] = [];
  for (const stream of STREAMS) {
    for (const bucket of buckets) {
      if (bucket.stream !== stream) continue;
      const sorted = [...bucket.items].sort((a, b) => timeOf(a).localeCompare(timeOf(b)));
      if (bucket.stream === 'metrics') {
        out.push(
          ...metricBatches({ ...bucket, stream: 'metrics', items: sorted as MetricItemInput[] }),
        );
        continue;
      }
      const native = bucket.stream;
      for (const chunk of chunks(sorted, BATCH_SIZE[native])) {
        out.push({
          project: bucket.project,
          stream: native,
          items: chunk.length,
          path: NATIVE_PATH,
          body: { sdk: bucket.sdk, [native]: chunk },
        });
      }
    }
  }
  return out;
}
