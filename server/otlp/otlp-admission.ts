import type { z } from 'zod';
import { ApiError } from '../core/api-error';
import {
  IssueItem,
  LogItem,
  MetricItem,
  SpanItem,
  type IssueItemInput,
  type LogItemInput,
  type MetricItemInput,
  type SpanItemInput,
} from '../ingest/item-schemas';
import { normalizeIssue, normalizeLog, normalizeMetric, normalizeSpan } from '../ingest/normalize';
import { emptyBatch, type Batch } from '../core/batch';
import type { PartialSuccess } from './otlp-codec';
import type { ResourceContext } from './otlp-resource';
import { RecordRejection } from './otlp-values';

/** Item inputs as the native schemas take them, before their own defaults apply. */
type Input<T> = { [K in keyof T]?: T[K] | undefined };

const MAX_REPORTED = 5;
const LISTS = ['issues', 'logs', 'spans', 'metrics'] as const;

/**
 * Turns mapped OTLP records into a Lookout batch, one record at a time: each goes through the
 * same item schema and normalization as the native and SDK routes (same limits, same rules),
 * and a record that fails is left out and counted, as OTLP's partial success reports it.
 */
export class OtlpAdmission {
  readonly batch: Batch;
  private rejectedCount = 0;
  private readonly reasons: string[] = [];
  private readonly reasonTexts = new Set<string>();
  /** The length of each list after each record. */
  private readonly ends: number[][] = [];

  constructor(projectId: string) {
    this.batch = emptyBatch(projectId);
  }

  /** Counts a record of the request's own kind as rejected (the number OTLP reports). */
  reject(at: string, reason: string): void {
    this.rejectedCount += 1;
    this.note(at, reason);
  }

  /** Records a reason without counting a rejected record (an issue derived from a stored span). */
  note(at: string, reason: string): void {
    // One line per distinct reason: 500 spans of a resource without service.version say it once.
    if (this.reasons.length >= MAX_REPORTED || this.reasonTexts.has(reason)) return;
    this.reasonTexts.add(reason);
    this.reasons.push(`${at}: ${reason}`);
  }

  /**
   * Runs `map` for one record; a RecordRejection it throws rejects the record at `at`. What
   * the record added (a span and its exception issues, a point's samples) is remembered as
   * one, so `chunks` never splits it.
   */
  guard(at: string, map: () => void): void {
    try {
      map();
    } catch (e) {
      if (e instanceof RecordRejection) this.reject(at, e.message);
      else throw e;
    }
    this.ends.push(LISTS.map((k) => this.batch[k].length));
  }

  /**
   * The taken records in batches of at most `max` items (as the store takes them), whole
   * records only, each with how many records it holds (for a partial success).
   */
  chunks(max: number): { batch: Batch; records: number }[] {
    const out: { batch: Batch; records: number }[] = [];
    let open: { batch: Batch; records: number; items: number } | null = null;
    let from = LISTS.map(() => 0);
    for (const end of this.ends) {
      const size = end.reduce((n, e, k) => n + e - (from[k] ?? 0), 0);
      if (size > 0) {
        if (open === null || open.items + size > max) {
          open = { batch: emptyBatch(this.batch.projectId), records: 0, items: 0 };
          out.push(open);
        }
        for (const [k, list] of LISTS.entries())
          (open.batch[list] as unknown[]).push(...this.batch[list].slice(from[k], end[k]));
        open.records += 1;
        open.items += size;
      }
      from = end;
    }
    return out.map(({ batch, records }) => ({ batch, records }));
  }

  /** Records taken but then not stored (the allowance ran out part way): counted rejected. */
  notStored(records: number, reason: string): void {
    this.rejectedCount += records;
    this.reasons.unshift(`${String(records)} records not stored: ${reason}`);
  }

  span(item: Input<SpanItemInput>, ctx: ResourceContext, at: string): boolean {
    return this.admit(SpanItem, item, at, true, (v) =>
      this.batch.spans.push(normalizeSpan(v, ctx, ctx.sdk, at)),
    );
  }

  log(item: Input<LogItemInput>, ctx: ResourceContext, at: string): boolean {
    return this.admit(LogItem, item, at, true, (v) =>
      this.batch.logs.push(normalizeLog(v, ctx, ctx.sdk, at)),
    );
  }

  /**
   * The samples of one data point (a histogram's `.count` and `.sum`): all are taken or none,
   * as OTLP counts the point once; a `.sum` failing after its `.count` was taken would leave
   * half of a rejected point stored.
   */
  metrics(items: Input<MetricItemInput>[], ctx: ResourceContext, at: string): boolean {
    const taken: Batch['metrics'] = [];
    for (const item of items) {
      const ok = this.admit(MetricItem, item, at, true, (v) =>
        taken.push(normalizeMetric(v, ctx, ctx.sdk, at)),
      );
      if (!ok) return false;
    }
    this.batch.metrics.push(...taken);
    return true;
  }

  /** An issue occurrence derived from an exception: a failure is reported, not counted. */
  issue(item: Input<IssueItemInput>, ctx: ResourceContext, at: string): boolean {
    return this.admit(IssueItem, item, at, false, (v) =>
      this.batch.issues.push(normalizeIssue(v, ctx, ctx.sdk, at)),
    );
  }

  /** What OTLP's `partial_success` says: null when every record was taken. */
  partialSuccess(): PartialSuccess {
    if (this.rejectedCount === 0 && this.reasons.length === 0) return null;
    return { rejected: this.rejectedCount, errorMessage: this.reasons.join('; ') };
  }

  private admit<S extends z.ZodType>(
    schema: S,
    item: unknown,
    at: string,
    counts: boolean,
    take: (value: z.output<S>) => void,
  ): boolean {
    const refuse = (reason: string) => {
      if (counts) this.reject(at, reason);
      else this.note(at, reason);
      return false;
    };
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      return refuse(first ? `${first.path.join('.') || 'record'}: ${first.message}` : 'invalid');
    }
    try {
      take(parsed.data);
      return true;
    } catch (e) {
      if (e instanceof ApiError) return refuse(e.message);
      throw e;
    }
  }
}
