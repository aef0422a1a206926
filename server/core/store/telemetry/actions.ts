import type { ActionEvent } from '../../batch';
import type { TimeListQuery } from './time-list-query';
import type { FunnelStepDef } from '../../../domain/funnel';
import type { LifecycleActivity } from '../../../domain/lifecycle';
import type { PathStep } from '../../../domain/paths';
import type { EventMatcher, RetentionActivity } from '../../../domain/retention';

export interface ActionsStore {
  /** Matching actions, newest first (occurred_at DESC, id DESC), at most `limit`. */
  list(q: ActionListQuery): Promise<ActionRecord[]>;
  /** A funnel of `steps` completed within `windowMs` of the entry (see `computeFunnel`). */
  funnel(
    q: ActionUnitRange & { steps: FunnelStepDef[]; windowMs: number },
  ): Promise<ActionFunnelCounts>;
  /**
   * Users' (`distinct_id`) retention activity in periods of `periodMs` from `from`, users of
   * equal activity counted together (see `computeRetention`); and the actions counted.
   */
  retention(
    q: ActionFilteredRange & { periodMs: number; start: EventMatcher; ret: EventMatcher },
  ): Promise<{
    events: number;
    startEvents: number;
    returnEvents: number;
    activities: RetentionActivity[];
  }>;
  /** Users' active periods (of `periodMs` from `from`), equal ones counted together. */
  lifecycle(q: ActionFilteredRange & { periodMs: number; event: EventMatcher }): Promise<{
    events: number;
    matchingEvents: number;
    activities: LifecycleActivity[];
  }>;
  /** Each unit's path (see `computePaths`), counted per path in no particular order. */
  paths(q: ActionUnitRange & { start: EventMatcher; depth: number }): Promise<{
    events: number;
    unitIdentified: number;
    units: number;
    paths: { steps: PathStep[]; units: number }[];
  }>;
  /** Counts of one segment's matching actions and its top actions. */
  segment(q: ActionSegmentQuery): Promise<ActionSegmentCounts>;
  /**
   * `segment` for each of several segments (a comparison and its project's counts), in order.
   * A store may read segments of one project, range, unit and match together.
   */
  segments(qs: readonly ActionSegmentQuery[]): Promise<ActionSegmentCounts[]>;
  /** Totals, events per bucket and the top actions in range. */
  overview(
    q: ActionFilteredRange & { bucketFrom: number; stepMs: number; topLimit: number },
  ): Promise<ActionOverviewCounts>;
  /** Counts of top-level property keys and their types; and how many actions are in range. */
  properties(
    q: ActionFilteredRange,
  ): Promise<{ events: number; withProperties: number; keys: ActionPropertyCount[] }>;
}

export type ActionListQuery = TimeListQuery & { distinctId: string | null };

export type ActionRecord = Omit<ActionEvent, 'kind'> & { projectId: string };

/** One project's actions in `[from, to)`, optionally of one environment (analytics). */
export type ActionRangeQuery = {
  projectId: string;
  from: number;
  to: number;
  environment: string | null;
};

/** The analytics overview and properties: the range plus their exact filters. */
export type ActionFilteredRange = ActionRangeQuery & {
  serviceName: string | null;
  release: string | null;
};

export type ActionOverviewCounts = {
  totals: { events: number; named: number; withSession: number; users: number; sessions: number };
  /** Events per bucket of `stepMs` from `bucketFrom` (index, count); empty buckets absent. */
  buckets: { bucket: number; events: number }[];
  /** Actions by name and kind, most events first, then name and kind; at most `topLimit`. */
  top: { name: string; kind: string; events: number; users: number; sessions: number }[];
  /** Distinct (name, kind) pairs in range. */
  actionCount: number;
};

/** Top-level property keys with the number of actions holding each JSON type. */
export type ActionPropertyCount = { key: string; type: string; events: number };

/** Which id identifies the unit of an analysis: `session_id` or `distinct_id`. */
export type AnalysisUnitColumn = 'session_id' | 'distinct_id';

/** Counts over every action in range (the funnel's coverage). */
export type ActionCoverageCounts = {
  events: number;
  /** `kind` is `page_view`, `screen_view` or `interaction`. */
  classified: number;
  /** `name` is not blank (spaces, tabs and line breaks only). */
  named: number;
  /** The unit column is present. */
  unitIdentified: number;
  /** Distinct values of the unit column. */
  units: number;
};

/** One project's actions in range and filters, counted per `unit`. */
export type ActionUnitRange = ActionFilteredRange & { unit: AnalysisUnitColumn };

/** A funnel over the actions in range (see `computeFunnel`) with the coverage counts. */
export type ActionFunnelCounts = ActionCoverageCounts & {
  /** Units (with the unit id) completing each step in order, in step order. */
  stepUnits: number[];
  /** Actions matching a step (kind and name). */
  selected: number;
  /** Of them, those carrying the unit id. */
  usable: number;
};

/** One analytics segment's actions (segment comparison); `match` is "any action" when null. */
export type ActionSegmentQuery = ActionFilteredRange & {
  unit: AnalysisUnitColumn;
  match: { kind: string; name: string } | null;
  /** Top actions listed (0 skips that query). */
  topLimit: number;
};

export type ActionSegmentCounts = {
  /** Every action in the segment's range and filters, matching or not. */
  all: number;
  /** Matching actions. */
  events: number;
  /** Matching actions carrying the unit column. */
  unitIdentified: number;
  /** Distinct unit values among the matching actions. */
  units: number;
  /** Matching actions by name and kind, most events first, then name and kind. */
  top: { name: string; kind: string; events: number; units: number }[];
};

/** The analytics reads of the actions port, which each telemetry tier implements in its SQL. */
export type ActionAnalyticsReads = Pick<
  ActionsStore,
  | 'funnel'
  | 'retention'
  | 'lifecycle'
  | 'paths'
  | 'segment'
  | 'segments'
  | 'overview'
  | 'properties'
>;

/** `segments` for a store that reads each segment on its own, side by side. */
export const segmentsOneByOne =
  (segment: ActionsStore['segment']): ActionsStore['segments'] =>
  (qs) =>
    Promise.all(qs.map((q) => segment(q)));
