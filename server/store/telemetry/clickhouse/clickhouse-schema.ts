/**
 * The telemetry schema in ClickHouse's dialect, written once as table specs and rendered for
 * one server (or the engine in this process) or for a cluster: there the same spec becomes a
 * replicated local table on every shard (`<name>_local`, `Replicated*MergeTree`, `ON CLUSTER`)
 * and a `Distributed` table of the spec's name over them, sharded by the spec's key, so every
 * statement of the adapters runs unchanged on both.
 *
 * Every telemetry row carries `batch_id` (the ingest batch that wrote it: a batch not
 * committed in the state store is deleted by it) and `retention_days` (its plan's retention
 * when written; TTL enforcement comes later). Tables are partitioned by month, so retention
 * can drop whole parts.
 */

export type DdlTarget = { cluster: string | null };

export const SINGLE: DdlTarget = { cluster: null };

type Engine = 'MergeTree' | 'AggregatingMergeTree';

export type TableSpec = {
  name: string;
  columns: string[];
  /** Skip indexes: `name expression TYPE … GRANULARITY n`. */
  indexes?: string[];
  engine: Engine;
  partitionBy?: string;
  orderBy: string;
  settings?: Record<string, number>;
  /** The Distributed table's sharding key on a cluster (same rows, same shard: retries dedupe). */
  shardBy: string;
};

export type ViewSpec = {
  name: string;
  /** The table the view writes to (a spec's name). */
  to: string;
  /** `SELECT …` reading `from` (a spec's name). */
  from: string;
  select: (from: string) => string;
};

/** Inserts whose token was seen among a table's last inserts are skipped (transport retries). */
const DEDUPE = { non_replicated_deduplication_window: 1000 };

const TIME = "DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD(1))";
const TEXT = 'String CODEC(ZSTD(1))';
const CONTEXT = [
  'environment LowCardinality(String)',
  'release LowCardinality(String)',
  'service_name LowCardinality(String)',
];
const SDK = ['sdk_name LowCardinality(String)', 'sdk_version LowCardinality(String)'];
const TRAILER = [`received_at ${TIME}`, 'batch_id UUID', 'retention_days UInt16'];
const TRACE_REF = ['trace_id Nullable(String)', 'span_id Nullable(String)'];

export const LOGS: TableSpec = {
  name: 'logs',
  columns: [
    'project_id LowCardinality(String)',
    `occurred_at ${TIME}`,
    'id String',
    'severity LowCardinality(String)',
    'source LowCardinality(String)',
    `message ${TEXT}`,
    // As sent (the record's attributes, returned exactly).
    `attributes ${TEXT}`,
    // The indexed leaves (domain/attribute-index.ts) by JSON Pointer path, one map per type, so
    // filters compare numbers as numbers and booleans as booleans. Strings case-folded; where
    // folding changed one, its original is in attr_string_cased (case-sensitive filters).
    'attr_string Map(LowCardinality(String), String) CODEC(ZSTD(1))',
    'attr_string_cased Map(LowCardinality(String), String) CODEC(ZSTD(1))',
    'attr_number Map(LowCardinality(String), Float64) CODEC(ZSTD(1))',
    'attr_bool Map(LowCardinality(String), UInt8) CODEC(ZSTD(1))',
    "attr_coverage Enum8('indexed' = 0, 'partial' = 1, 'unindexed' = 2)",
    ...CONTEXT,
    ...TRACE_REF,
    ...SDK,
    'bytes UInt32',
    'triage_key LowCardinality(String)',
    ...TRAILER,
  ],
  indexes: [
    'logs_by_trace trace_id TYPE bloom_filter(0.001) GRANULARITY 1',
    'logs_by_string_value mapValues(attr_string) TYPE bloom_filter(0.01) GRANULARITY 1',
  ],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(occurred_at)',
  // Lists read one project's newest first: read in order, they stop after a page.
  orderBy: '(project_id, occurred_at, id)',
  // A page of 100 reads at least a granule from each part its range overlaps: at 8,192 rows a
  // granule that was 40–90k rows per page at 10M logs (5 parts), at 1,024 about 3,000, for
  // half the CPU (bench/README.md, "The ClickHouse tier"). Migration 4 rebuilds older stores.
  settings: { ...DEDUPE, index_granularity: 1024 },
  shardBy: 'cityHash64(project_id, id)',
};

export const ISSUE_OCCURRENCES: TableSpec = {
  name: 'issue_occurrences',
  columns: [
    'project_id LowCardinality(String)',
    'issue_id String',
    `occurred_at ${TIME}`,
    'id String',
    // Order of arrival, as the state store's `issues.latest_occurrence_seq` names it.
    'seq UInt64',
    'severity LowCardinality(String)',
    `title ${TEXT}`,
    `message ${TEXT}`,
    'exception Nullable(String) CODEC(ZSTD(1))',
    'stack_trace Nullable(String) CODEC(ZSTD(1))',
    `attributes ${TEXT}`,
    ...CONTEXT,
    ...TRACE_REF,
    'breadcrumbs Nullable(String) CODEC(ZSTD(1))',
    'breadcrumbs_truncated UInt8',
    ...SDK,
    ...TRAILER,
  ],
  indexes: ['occurrences_by_trace trace_id TYPE bloom_filter(0.001) GRANULARITY 1'],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(occurred_at)',
  // An issue's occurrences newest first, and its histogram, read one issue's range.
  orderBy: '(project_id, issue_id, occurred_at, id)',
  settings: DEDUPE,
  shardBy: 'cityHash64(project_id, issue_id)',
};

export const SPANS: TableSpec = {
  name: 'spans',
  columns: [
    'project_id LowCardinality(String)',
    'trace_id String',
    `started_at ${TIME}`,
    'id String',
    'span_id String',
    'parent_span_id Nullable(String)',
    `name ${TEXT}`,
    'operation LowCardinality(Nullable(String))',
    'kind LowCardinality(Nullable(String))',
    ...CONTEXT,
    'duration_ms Float64',
    'status LowCardinality(Nullable(String))',
    'status_message Nullable(String) CODEC(ZSTD(1))',
    `attributes ${TEXT}`,
    `events ${TEXT}`,
    ...SDK,
    ...TRAILER,
  ],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(started_at)',
  // A trace is read whole: its spans are contiguous.
  orderBy: '(project_id, trace_id, started_at, id)',
  settings: DEDUPE,
  shardBy: 'cityHash64(project_id, trace_id)',
};

/**
 * Trace discovery: what each ingest batch added to each trace of a project (count, errors,
 * start, end, best root candidate, naming counts, facets), written with the batch's spans
 * (`tracePartDeltas`, the rules the other stores roll up with). A trace's rows are combined
 * when read (a trace has a row per batch that carried its spans: usually one to a few), so
 * discovery never scans spans, and a removed batch takes its part back by the same delete by
 * `batch_id` as its spans: no count to negate, and start, end and root stay exact.
 */
export const TRACE_PARTS: TableSpec = {
  name: 'trace_parts',
  columns: [
    'project_id LowCardinality(String)',
    'trace_id String',
    `started_at ${TIME}`,
    // Epoch ms (start plus duration, fractional like the durations).
    'ended_at Float64',
    'span_count UInt32',
    'error_span_count UInt32',
    'generic_name_spans UInt32',
    'unmatched_route_spans UInt32',
    'generic_operation_spans UInt32',
    'root_span_id String',
    'root_has_parent UInt8',
    'root_started_at Int64',
    `root_name ${TEXT}`,
    'root_service_name LowCardinality(String)',
    'root_operation LowCardinality(Nullable(String))',
    'services Array(LowCardinality(String))',
    'releases Array(LowCardinality(String))',
    'environments Array(LowCardinality(String))',
    ...TRAILER,
  ],
  indexes: ['trace_parts_by_start started_at TYPE minmax GRANULARITY 1'],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(started_at)',
  // Discovery groups a project's parts by trace; the trace's rows sit together.
  orderBy: '(project_id, trace_id)',
  settings: DEDUPE,
  shardBy: 'cityHash64(project_id, trace_id)',
};

export const ACTIONS: TableSpec = {
  name: 'actions',
  columns: [
    'project_id LowCardinality(String)',
    `occurred_at ${TIME}`,
    'id String',
    'name LowCardinality(String)',
    'kind LowCardinality(String)',
    'distinct_id String',
    'session_id Nullable(String)',
    `properties ${TEXT}`,
    ...CONTEXT,
    ...TRACE_REF,
    ...SDK,
    ...TRAILER,
  ],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(occurred_at)',
  // The actions list reads newest first; analytics (phase 2) may add a projection by user.
  orderBy: '(project_id, occurred_at, id)',
  settings: DEDUPE,
  shardBy: 'cityHash64(project_id, distinct_id)',
};

export const METRIC_SAMPLES: TableSpec = {
  name: 'metric_samples',
  columns: [
    'project_id LowCardinality(String)',
    'name LowCardinality(String)',
    `occurred_at ${TIME}`,
    'id String',
    'event_id String',
    'kind LowCardinality(String)',
    'value Float64',
    'unit LowCardinality(Nullable(String))',
    'temporality LowCardinality(Nullable(String))',
    `attributes ${TEXT}`,
    ...CONTEXT,
    ...TRACE_REF,
    ...SDK,
    'bytes UInt32',
    ...TRAILER,
  ],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(occurred_at)',
  // A series reads one metric's range.
  orderBy: '(project_id, name, occurred_at, event_id)',
  settings: DEDUPE,
  shardBy: 'cityHash64(project_id, event_id)',
};

/**
 * Every accepted item's id, by project, kind and id: the ledger ingest checks a batch against
 * (`already_accepted`), and the id index of every kind (`GET /api/logs/{id}` finds the log's
 * time here, then reads it by its primary key). Small granules: a batch looks up a thousand
 * scattered ids.
 */
export const ACCEPTED_IDS: TableSpec = {
  name: 'accepted_ids',
  columns: [
    'project_id LowCardinality(String)',
    "kind Enum8('issue' = 1, 'log' = 2, 'span' = 3, 'action' = 4, 'metric' = 5)",
    'id String',
    `occurred_at ${TIME}`,
    'batch_id UUID',
    'retention_days UInt16',
  ],
  engine: 'MergeTree',
  partitionBy: 'toYYYYMM(occurred_at)',
  orderBy: '(project_id, kind, id)',
  settings: { ...DEDUPE, index_granularity: 256 },
  shardBy: 'cityHash64(project_id, id)',
};

/** The attribute catalog: observed paths per project, hour and captured severity. */
export const LOG_ATTRIBUTE_HOURS: TableSpec = {
  name: 'log_attribute_hours',
  columns: [
    'project_id LowCardinality(String)',
    "hour DateTime('UTC')",
    'severity LowCardinality(String)',
    "type Enum8('string' = 1, 'number' = 2, 'boolean' = 3)",
    'path LowCardinality(String)',
    // Signed: an aborted batch is taken back by adding its counts negated.
    'observed SimpleAggregateFunction(sum, Int64)',
    `last_seen_at SimpleAggregateFunction(max, DateTime64(3, 'UTC'))`,
  ],
  engine: 'AggregatingMergeTree',
  partitionBy: 'toYYYYMM(hour)',
  orderBy: '(project_id, hour, severity, type, path)',
  // The negated counts of a removed batch carry a token, so removing it again adds none.
  settings: DEDUPE,
  shardBy: 'cityHash64(project_id)',
};

/** Coverage of the attribute index per project, hour and captured severity. */
export const LOG_COVERAGE_HOURS: TableSpec = {
  name: 'log_coverage_hours',
  columns: [
    'project_id LowCardinality(String)',
    "hour DateTime('UTC')",
    'severity LowCardinality(String)',
    'indexed SimpleAggregateFunction(sum, Int64)',
    'partial SimpleAggregateFunction(sum, Int64)',
    'unindexed SimpleAggregateFunction(sum, Int64)',
  ],
  engine: 'AggregatingMergeTree',
  partitionBy: 'toYYYYMM(hour)',
  orderBy: '(project_id, hour, severity)',
  settings: DEDUPE,
  shardBy: 'cityHash64(project_id)',
};

/**
 * The hours in which each string value of each path occurs, ordered by key and value: a rare
 * value (one user of 50,000) is found here in a few rows, and the log list then reads only
 * those hours instead of testing every granule's bloom filter. Counts only grow (an aborted
 * batch leaves its hours listed, which costs a read, never a wrong answer).
 */
export const LOG_VALUE_HOURS: TableSpec = {
  name: 'log_value_hours',
  columns: [
    'project_id LowCardinality(String)',
    'path LowCardinality(String)',
    'value String CODEC(ZSTD(1))',
    "hour DateTime('UTC')",
    'logs SimpleAggregateFunction(sum, UInt64)',
  ],
  engine: 'AggregatingMergeTree',
  partitionBy: 'toYYYYMM(hour)',
  orderBy: '(project_id, path, value, hour)',
  shardBy: 'cityHash64(project_id)',
};

export const CATALOG_VIEW: ViewSpec = {
  name: 'log_attribute_hours_mv',
  to: 'log_attribute_hours',
  from: 'logs',
  select: (from) => `SELECT project_id, toStartOfHour(occurred_at) AS hour, severity,
      leaf.1 AS type, leaf.2 AS path, toInt64(count()) AS observed, max(occurred_at) AS last_seen_at
    FROM ${from}
    ARRAY JOIN arrayConcat(
      arrayMap(k -> ('string', k), mapKeys(attr_string)),
      arrayMap(k -> ('number', k), mapKeys(attr_number)),
      arrayMap(k -> ('boolean', k), mapKeys(attr_bool))) AS leaf
    GROUP BY project_id, hour, severity, type, path`,
};

export const COVERAGE_VIEW: ViewSpec = {
  name: 'log_coverage_hours_mv',
  to: 'log_coverage_hours',
  from: 'logs',
  select: (from) => `SELECT project_id, toStartOfHour(occurred_at) AS hour, severity,
      toInt64(countIf(attr_coverage = 'indexed')) AS indexed,
      toInt64(countIf(attr_coverage = 'partial')) AS partial,
      toInt64(countIf(attr_coverage = 'unindexed')) AS unindexed
    FROM ${from} GROUP BY project_id, hour, severity`,
};

export const VALUE_VIEW: ViewSpec = {
  name: 'log_value_hours_mv',
  to: 'log_value_hours',
  from: 'logs',
  select: (from) => `SELECT project_id, leaf_path AS path, leaf_value AS value,
      toStartOfHour(occurred_at) AS hour, count() AS logs
    FROM ${from}
    ARRAY JOIN mapKeys(attr_string) AS leaf_path, mapValues(attr_string) AS leaf_value
    GROUP BY project_id, path, value, hour`,
};

/**
 * The id ledger's rows, written by ClickHouse from each kind's rows as they are inserted
 * (migration 5), rather than sent as rows of their own: per group of 2,000 logs that is 2,000
 * fewer objects built and serialized on the service's main thread, 2,000 fewer JSON rows
 * parsed and one insert fewer (the view copies columns of the block already parsed). The
 * view's rows belong to the kind's insert: a retried insert its token skips adds none to the
 * ledger either, and a batch's ledger rows are removed by `batch_id` as before. A metric
 * sample's ledger id is the event id sent (its `id` is the sample's own).
 */
const ledgerView = (from: string, kind: string, id = 'id', at = 'occurred_at'): ViewSpec => ({
  name: `accepted_ids_from_${from}_mv`,
  to: 'accepted_ids',
  from,
  select: (
    source,
  ) => `SELECT project_id, CAST('${kind}' AS Enum8('issue' = 1, 'log' = 2, 'span' = 3, 'action' = 4, 'metric' = 5)) AS kind,
      ${id} AS id, ${at} AS occurred_at, batch_id, retention_days
    FROM ${source}`,
});

export const LEDGER_VIEWS: readonly ViewSpec[] = [
  ledgerView('logs', 'log'),
  ledgerView('issue_occurrences', 'issue'),
  ledgerView('spans', 'span', 'id', 'started_at'),
  ledgerView('actions', 'action'),
  ledgerView('metric_samples', 'metric', 'event_id'),
];

const onCluster = (t: DdlTarget) => (t.cluster ? ` ON CLUSTER '${t.cluster}'` : '');

/** The table a spec's rows live in on this target (the local table on a cluster). */
const localName = (name: string, t: DdlTarget) => (t.cluster ? `${name}_local` : name);

/** `CREATE TABLE` statements of a spec: one table, or a cluster's local and Distributed pair. */
export function createTable(spec: TableSpec, t: DdlTarget): string[] {
  const engine = t.cluster
    ? `Replicated${spec.engine}('/clickhouse/tables/{shard}/{database}/${spec.name}', '{replica}')`
    : spec.engine;
  const body = [...spec.columns, ...(spec.indexes ?? []).map((i) => `INDEX ${i}`)];
  const settings = Object.entries(spec.settings ?? {}).map(([k, v]) => `${k} = ${String(v)}`);
  const local = [
    `CREATE TABLE IF NOT EXISTS ${localName(spec.name, t)}${onCluster(t)} (`,
    body.map((c) => `  ${c}`).join(',\n'),
    `) ENGINE = ${engine}`,
    spec.partitionBy ? `PARTITION BY ${spec.partitionBy}` : '',
    `ORDER BY ${spec.orderBy}`,
    settings.length > 0 ? `SETTINGS ${settings.join(', ')}` : '',
  ]
    .filter((l) => l !== '')
    .join('\n');
  if (!t.cluster) return [local];
  return [
    local,
    `CREATE TABLE IF NOT EXISTS ${spec.name}${onCluster(t)} AS ${localName(spec.name, t)}
ENGINE = Distributed('${t.cluster}', currentDatabase(), ${localName(spec.name, t)}, ${spec.shardBy})`,
  ];
}

/**
 * `ALTER TABLE … ADD COLUMN` for a spec's table, safe to run again: on a cluster the local
 * tables and the Distributed table over them (which reads the columns it declares).
 */
export function addColumns(name: string, columns: string[], t: DdlTarget): string[] {
  const add = columns.map((c) => `ADD COLUMN IF NOT EXISTS ${c}`).join(', ');
  const local = `ALTER TABLE ${localName(name, t)}${onCluster(t)} ${add}`;
  return t.cluster ? [local, `ALTER TABLE ${name}${onCluster(t)} ${add}`] : [local];
}

/**
 * The head of a lightweight `DELETE` of a spec's rows (`… WHERE` follows): on a cluster it goes
 * to every shard's local table, since a Distributed table takes no `DELETE`.
 */
export const deleteFrom = (name: string, t: DdlTarget): string =>
  `DELETE FROM ${localName(name, t)}${onCluster(t)}`;

/**
 * Statements that rebuild a spec's table with the spec's settings (a setting such as
 * `index_granularity` is fixed when a table is created), keeping every row: a copy is filled
 * and swapped in. Views that read the table follow its name, so they read the new one. Run
 * again after a crash at any point, they end the same. On a cluster nothing: its schema is
 * created whole (`deploy/clickhouse/cluster.sql`), with the spec's settings already.
 */
export function rebuildTable(spec: TableSpec, t: DdlTarget): string[] {
  if (t.cluster) return [];
  const copy = `${spec.name}_rebuild`;
  return [
    `DROP TABLE IF EXISTS ${copy}`,
    ...createTable({ ...spec, name: copy }, t),
    `INSERT INTO ${copy} SELECT * FROM ${spec.name}`,
    `EXCHANGE TABLES ${spec.name} AND ${copy}`,
    `DROP TABLE ${copy}`,
  ];
}

/** A materialized view: on a cluster, on each shard's local tables. */
export function createView(view: ViewSpec, t: DdlTarget): string {
  return `CREATE MATERIALIZED VIEW IF NOT EXISTS ${view.name}${onCluster(t)}
TO ${localName(view.to, t)} AS ${view.select(localName(view.from, t))}`;
}
