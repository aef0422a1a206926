import { foldCase } from '../../../domain/attribute-index';
import type { AttributeFilter } from '../../../domain/read-rules/attribute-filters';
import type { Severity } from '../../../domain/severity';
import type { LogRulesStore } from '../../../core/store/state/log-rules';
import type {
  LogCountEachQuery,
  LogCountQuery,
  LogListQuery,
  LogRecord,
  LogRule,
  LogsStore,
} from '../../../core/store/telemetry/logs';
import { bucketsRange, countRange, countsByBucket } from '../../rows/log-count';
import { mergeNewestFirstPages } from '../../rows/newest-first';
import { and, join, raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';
import { msColumn, time } from './ch-time';
import { readCatalog } from './log-catalog';
import { HOUR_MS, hourRanges, valueHourBatches, type ValueHour } from './value-hours';

/**
 * Hours of a rare value read instead of the whole range; past this many the value is common
 * enough that reading newest first finds a page soon anyway.
 */
const MAX_VALUE_HOURS = 72;

/**
 * A list reads each project newest first in time windows, each holding this many times more
 * logs than the last (the first: `FIRST_WINDOW_ROWS` per row of the page), the last window the
 * rest of the range. Read over the whole range at once, a filtered page of the time-ordered
 * 10M store read 55,000 rows of a project to find 101 (every part's newest granules are read
 * side by side, each until it yields a block): 59 ms of CPU; within its newest 20,000 logs, 17,000
 * rows and 26 ms (bench/README.md, "Bucketed maps and time windows").
 */
const FIRST_WINDOW_ROWS = 200;
const WINDOW_GROWTH = 8;
const MAX_WINDOWS = 4;

/** The columns of a log as the reads return it (times as epoch milliseconds). */
const COLUMNS = raw(`id, project_id, toUnixTimestamp64Milli(occurred_at) AS occurred_ms, severity,
  source, message, attributes, environment, release, service_name, trace_id, span_id, sdk_name,
  sdk_version, triage_key`);

type LogRow = {
  id: string;
  project_id: string;
  occurred_ms: number;
  severity: Severity;
  source: string;
  message: string;
  attributes: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  sdk_name: string;
  sdk_version: string;
  triage_key: string;
};

const toLog = (r: LogRow, rule: LogRule | null): LogRecord => ({
  id: r.id,
  projectId: r.project_id,
  occurredAt: r.occurred_ms,
  severity: r.severity,
  source: r.source,
  message: r.message,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  service_name: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  sdk: { name: r.sdk_name, version: r.sdk_version },
  rule,
});

/**
 * Whether a filter's comparison holds for the value a map gives for a path it lacks (`''`, 0,
 * false): only then must the condition also ask that the log has the path. Otherwise the
 * comparison alone excludes logs without it. Equal in cost on today's maps; on bucketed maps
 * (`map_serialization_version = 'with_buckets'`, not kept: bench/README.md) `mapContains`
 * reads every bucket where the comparison reads one.
 */
function holdsWithoutPath(f: Exclude<AttributeFilter, { operator: 'exists' }>): boolean {
  switch (f.type) {
    case 'boolean':
      return f.operator === 'eq' ? !f.value : f.value;
    case 'number': {
      const v = f.value;
      return { eq: 0 === v, ne: 0 !== v, gt: 0 > v, gte: 0 >= v, lt: 0 < v, lte: 0 <= v }[
        f.operator
      ];
    }
    case 'string': {
      // What `comparison` compares the missing value ('') with.
      const folded = foldCase(f.value);
      const empty = f.caseSensitive
        ? f.value === '' && (f.operator !== 'eq' || folded === '')
        : folded === '';
      return f.operator === 'ne' ? !empty : empty;
    }
  }
}

/**
 * One attribute filter on the typed maps (clickhouse-schema.ts). A path holds one type, so
 * having it in the type's map is "has the path with a value of this type"; every operator
 * (`ne` included) matches only logs that have it, as the other stores do. Strings compare
 * case-folded unless `case_sensitive`, then against the original.
 */
export function attributeCondition(f: AttributeFilter): SqlFragment {
  const map = { string: 'attr_string', number: 'attr_number', boolean: 'attr_bool' }[f.type];
  const has = sql`mapContains(${raw(map)}, ${f.path})`;
  if (f.operator === 'exists') return has;
  const compared = comparison(f, map);
  return holdsWithoutPath(f) ? sql`${has} AND ${compared}` : compared;
}

/** The comparison of a filter other than `exists` on its type's map. */
function comparison(f: Exclude<AttributeFilter, { operator: 'exists' }>, map: string): SqlFragment {
  const v = sql`${raw(map)}[${f.path}]`;
  switch (f.type) {
    case 'boolean':
      return sql`${v} ${raw(f.operator === 'eq' ? '=' : '!=')} ${typed(f.value ? 1 : 0, 'UInt8')}`;
    case 'number': {
      const op = { eq: '=', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' }[f.operator];
      return sql`${v} ${raw(op)} ${typed(f.value, 'Float64')}`;
    }
    case 'string': {
      const folded = foldCase(f.value);
      if (!f.caseSensitive) {
        switch (f.operator) {
          case 'eq':
            return sql`${v} = ${folded}`;
          case 'ne':
            return sql`${v} != ${folded}`;
          case 'contains':
            return sql`position(${v}, ${folded}) > 0`;
          case 'starts_with':
            return sql`startsWith(${v}, ${folded})`;
        }
      }
      const original = sql`if(mapContains(attr_string_cased, ${f.path}), attr_string_cased[${f.path}], ${v})`;
      switch (f.operator) {
        case 'eq':
          // The folded value narrows (and is what the value hours know); the original decides.
          return sql`${v} = ${folded} AND ${original} = ${f.value}`;
        case 'ne':
          return sql`${original} != ${f.value}`;
        case 'contains':
          return sql`position(${original}, ${f.value}) > 0`;
        case 'starts_with':
          return sql`startsWith(${original}, ${f.value})`;
      }
    }
  }
}

/**
 * `WITH … SELECT <bucket_index>` of a count over buckets: each log is counted once in every
 * bucket holding its time (buckets may overlap), by its 0-based index.
 */
const selectBucketIndex = (buckets: readonly { start: number; end: number }[]): SqlFragment =>
  sql`WITH ${buckets.map((b) => b.start)} AS starts, ${buckets.map((b) => b.end)} AS ends
    SELECT arrayJoin(arrayFilter(i -> ${msColumn('occurred_at')} >= starts[i]
      AND ${msColumn('occurred_at')} < ends[i], arrayEnumerate(starts))) - 1 AS bucket_index`;

/** Each project's value hours when the value is rare (listed) in every one, else null. */
function rareInEvery(
  projectIds: readonly string[],
  hours: ReadonlyMap<string, ValueHour[] | null> | null,
): Map<string, ValueHour[]> | null {
  if (hours === null) return null;
  const rare = new Map<string, ValueHour[]>();
  for (const p of projectIds) {
    const hs = hours.get(p);
    if (!hs) return null;
    rare.set(p, hs);
  }
  return rare;
}

/** Logs in ClickHouse; triage rules from the state store. */
export function clickhouseLogs(db: ChDb, rules: LogRulesStore): LogsStore {
  /**
   * The string value compared for equality that a read narrows by (the first such filter):
   * its path, and its value case-folded, as `attr_string` and the value hours hold it.
   */
  function narrowingValue(q: LogListQuery): { path: string; value: string } | null {
    const eq = q.attributeFilters.find((f) => f.type === 'string' && f.operator === 'eq');
    if (!eq || eq.type !== 'string' || eq.operator === 'exists') return null;
    return { path: eq.path, value: foldCase(eq.value) };
  }

  /**
   * For each project, the hours in which its logs hold the query's narrowing value within the
   * query's range, newest first, each with how many of its logs hold it (counts only grow: an
   * aborted batch's stay, and rules may ignore some, so a count may be above the logs a read
   * finds, never below); null where there are too many to be worth listing (a common value).
   * Read for every project in one statement. Null: the query has no such value.
   */
  async function valueHours(
    projectIds: string[],
    q: LogListQuery,
  ): Promise<Map<string, ValueHour[] | null> | null> {
    const narrowing = narrowingValue(q);
    if (narrowing === null) return null;
    const range: SqlFragment[] = [];
    if (q.since !== null) range.push(sql`hour >= toStartOfHour(${time(q.since)})`);
    const end = q.after?.time ?? q.until;
    if (end !== null) range.push(sql`hour <= ${time(end)}`);
    const rows = await db.rows<{ project_id: string; h: number; n: number }>(
      sql`SELECT project_id, toUnixTimestamp(hour) * 1000 AS h, sum(logs) AS n FROM log_value_hours
        WHERE project_id IN ${projectIds} AND path = ${narrowing.path} AND value = ${narrowing.value}
          ${range.length > 0 ? sql`AND ${and(range)}` : raw('')}
        GROUP BY project_id, hour HAVING n > 0
        ORDER BY project_id, hour DESC LIMIT ${MAX_VALUE_HOURS + 1} BY project_id`,
    );
    const hours = new Map<string, ValueHour[]>(projectIds.map((p) => [p, []]));
    for (const r of rows) hours.get(r.project_id)?.push({ hour: r.h, logs: Number(r.n) });
    return new Map(
      [...hours].map(([p, hs]) => [p, hs.length > MAX_VALUE_HOURS ? null : hs] as const),
    );
  }

  /**
   * For each project, where the list's time windows begin (epoch ms at hour starts, newest
   * first): window k is [starts[k], starts[k - 1]) and one more, below the last start, holds
   * the rest of the range. Sized from the hourly log counts (`log_coverage_hours`), read for
   * every project in one statement; they only place the windows' bounds, so a count that is
   * off costs a read more or less, never a row.
   */
  async function windowStarts(projectIds: string[], q: LogListQuery, limit: number) {
    const range: SqlFragment[] = [sql`project_id IN ${projectIds}`];
    if (q.since !== null) range.push(sql`hour >= toStartOfHour(${time(q.since)})`);
    const end = q.after?.time ?? q.until;
    if (end !== null) range.push(sql`hour <= ${time(end)}`);
    const rows = await db.rows<{ project_id: string; h: number; n: number }>(
      sql`SELECT project_id, toUnixTimestamp(hour) * 1000 AS h,
          sum(indexed) + sum(partial) + sum(unindexed) AS n
        FROM log_coverage_hours WHERE ${and(range)}
        GROUP BY project_id, hour HAVING n > 0 ORDER BY project_id, hour DESC`,
    );
    const starts = new Map<string, number[]>(projectIds.map((p) => [p, []]));
    let project = '';
    let target = 0;
    let held = 0;
    for (const r of rows) {
      if (r.project_id !== project)
        [project, target, held] = [r.project_id, limit * FIRST_WINDOW_ROWS, 0];
      const own = starts.get(project);
      if (!own || own.length >= MAX_WINDOWS - 1) continue;
      held += Number(r.n);
      if (held >= target) {
        own.push(r.h);
        [target, held] = [target * WINDOW_GROWTH, 0];
      }
    }
    return starts;
  }

  /**
   * The conditions of one project's logs the list query matches (range and cursor included),
   * or null when none can match; the list and the count both read with them. `hours`: the
   * project's hours of the narrowing value (`valueHours`); undefined reads without them.
   */
  function conditionsOf(
    projectId: string,
    q: LogListQuery,
    projectRules: Map<string, LogRule>,
    hours?: readonly ValueHour[] | null,
  ): SqlFragment[] | null {
    const where: SqlFragment[] = [sql`project_id = ${projectId}`];
    if (q.since !== null) where.push(sql`occurred_at >= ${time(q.since)}`);
    if (q.until !== null) where.push(sql`occurred_at < ${time(q.until)}`);
    if (q.after !== null)
      // The plain bound lets the primary key range stop; the pair decides ties by id.
      where.push(
        sql`occurred_at <= ${time(q.after.time)}`,
        sql`(occurred_at < ${time(q.after.time)} OR id < ${q.after.id})`,
      );

    const ignored = [...projectRules].filter(([, r]) => r.ignored).map(([k]) => k);
    if (q.status === 'ignored') {
      if (ignored.length === 0) return null;
      where.push(sql`triage_key IN ${ignored}`);
    } else if (q.status === 'active' && ignored.length > 0)
      where.push(sql`triage_key NOT IN ${ignored}`);

    if (q.severity !== null) {
      const overrides = [...projectRules].filter(
        (e): e is [string, { severity: Severity; ignored: boolean }] => e[1].severity !== null,
      );
      where.push(
        overrides.length === 0
          ? sql`severity = ${q.severity}`
          : sql`transform(toString(triage_key), ${overrides.map(([k]) => k)}, ${overrides.map(([, r]) => r.severity)}, toString(severity)) = ${q.severity}`,
      );
    }
    if (q.search !== null) where.push(sql`position(lowerUTF8(message), ${foldCase(q.search)}) > 0`);
    const exact: [string, string | null][] = [
      ['trace_id', q.traceId],
      ['service_name', q.serviceName],
      ['release', q.release],
      ['environment', q.environment],
    ];
    for (const [column, value] of exact)
      if (value !== null) where.push(sql`${raw(column)} = ${value}`);

    for (const f of q.attributeFilters) where.push(sql`(${attributeCondition(f)})`);
    // A string value compared for equality: read only the hours it occurs in.
    const narrowing = narrowingValue(q);
    if (narrowing !== null && hours !== undefined && hours !== null) {
      if (hours.length === 0) return null;
      where.push(
        sql`(${join(
          // Adjacent hours as one range: fewer ranges for the primary key to look up.
          hourRanges(hours.map((h) => h.hour)).map(
            (r) => sql`(occurred_at >= ${time(r.start)} AND occurred_at < ${time(r.end)})`,
          ),
          ' OR ',
        )})`,
      );
    }
    return where;
  }

  /**
   * The matching logs of the query's projects, newest first, at most `limit`: each project
   * read newest first along its primary key, stopping after a page, and the pages merged (one
   * read over several projects would sort every match). The pages are statements of their
   * own, run side by side: as one UNION ALL they took less CPU but longer (bench/README.md).
   */
  async function list(q: LogListQuery): Promise<LogRecord[]> {
    const hours = await valueHours(q.projectIds, q);
    const rare = rareInEvery(q.projectIds, hours);
    if (rare !== null) return listRare(q, rare);
    // A page with no filter is the first `limit` rows of the range: no window would narrow it.
    // Nor would one where every project reads only the hours of a rare value.
    const filtered =
      q.attributeFilters.length > 0 ||
      q.severity !== null ||
      q.search !== null ||
      // `active` (the default) leaves out the few logs rules ignore: no narrower than none.
      q.status === 'ignored' ||
      [q.traceId, q.serviceName, q.release, q.environment].some((v) => v !== null);
    const starts =
      filtered && q.projectIds.some((p) => !Array.isArray(hours?.get(p)))
        ? await windowStarts(q.projectIds, q, q.limit)
        : null;
    const pages = await Promise.all(
      q.projectIds.map(async (projectId) => {
        const projectRules = await rules.ofProject(projectId);
        const valueHoursOf = hours?.get(projectId);
        const where = conditionsOf(projectId, q, projectRules, valueHoursOf);
        if (where === null) return [];
        // The hours of a rare value narrow the read already: one window.
        const bounds = Array.isArray(valueHoursOf) ? [] : (starts?.get(projectId) ?? []);
        const rows: LogRow[] = [];
        for (let k = 0; k <= bounds.length && rows.length < q.limit; k++) {
          const window: SqlFragment[] = [];
          const from = bounds[k];
          const to = bounds[k - 1];
          if (from !== undefined) window.push(sql`occurred_at >= ${time(from)}`);
          if (to !== undefined) window.push(sql`occurred_at < ${time(to)}`);
          rows.push(
            ...(await db.rows<LogRow>(
              sql`SELECT ${COLUMNS} FROM logs WHERE ${and([...where, ...window])}
                ORDER BY occurred_at DESC, id DESC LIMIT ${q.limit - rows.length}`,
            )),
          );
        }
        return rows.map((r) => {
          const log = toLog(r, projectRules.get(r.triage_key) ?? null);
          return { occurred_at: log.occurredAt, id: log.id, log };
        });
      }),
    );
    return mergeNewestFirstPages(pages, q.limit).map((h) => h.log);
  }

  /**
   * The logs of a value rare in every project read by its hours' counts: the hours of all
   * projects, newest first, in batches holding what the page still lacks (`valueHourBatches`),
   * a batch's projects read side by side. A count may be above the logs found (rules ignore
   * some, an aborted batch's stay), so a batch that finds too few is followed by the next;
   * every log of a later batch is older than those found, so the page is exact once full.
   * Reading every hour instead (up to 72 a project) read a granule or more per hour of each
   * project: about 800 ms of CPU for a user's page at 10M logs (bench/README.md).
   */
  async function listRare(
    q: LogListQuery,
    hours: ReadonlyMap<string, readonly ValueHour[]>,
  ): Promise<LogRecord[]> {
    const rulesOf = new Map(
      await Promise.all(q.projectIds.map(async (p) => [p, await rules.ofProject(p)] as const)),
    );
    const found: LogRecord[] = [];
    for (const batch of valueHourBatches(hours, () => q.limit - found.length)) {
      const wanted = q.limit - found.length;
      const pages = await Promise.all(
        [...batch].map(async ([projectId, batchHours]) => {
          const projectRules = rulesOf.get(projectId) ?? new Map<string, LogRule>();
          // The batch's hours are all of the project's value hours in the span they cover,
          // so the span holds the same logs; read as one range (the bloom filter skipping the
          // hours between) it took 10-25% less CPU than the hours as ORed ranges.
          const where = conditionsOf(projectId, q, projectRules);
          if (where === null || batchHours.length === 0) return [];
          const from = Math.min(...batchHours);
          const to = Math.max(...batchHours) + HOUR_MS;
          const rows = await db.rows<LogRow>(
            sql`SELECT ${COLUMNS} FROM logs WHERE ${and(where)}
                AND occurred_at >= ${time(from)} AND occurred_at < ${time(to)}
              ORDER BY occurred_at DESC, id DESC LIMIT ${wanted}`,
          );
          return rows.map((r) => {
            const log = toLog(r, projectRules.get(r.triage_key) ?? null);
            return { occurred_at: log.occurredAt, id: log.id, log };
          });
        }),
      );
      found.push(...mergeNewestFirstPages(pages, wanted).map((h) => h.log));
      if (found.length >= q.limit) break;
    }
    return found;
  }

  /**
   * One project's matching logs counted per bucket in one read: the list's conditions over
   * the range covering the buckets, each log then counted in every bucket holding its time.
   */
  async function countOf(
    projectId: string,
    q: LogCountQuery,
    hours: Map<string, ValueHour[] | null> | null,
  ): Promise<number[]> {
    const where = conditionsOf(
      projectId,
      countRange(q),
      await rules.ofProject(projectId),
      hours?.get(projectId),
    );
    if (where === null) return q.buckets.map(() => 0);
    const rows = await db.rows<{ bucket_index: number; n: string }>(
      sql`${selectBucketIndex(q.buckets)},
          count() AS n
        FROM logs WHERE ${and(where)} GROUP BY bucket_index`,
    );
    return countsByBucket(q, rows);
  }

  /**
   * One project's counts of several filter sets in one read: the range covering the buckets
   * is read once and each set is a `countIf` of its own conditions. The value hours are not
   * looked up per set (a read each): the range is read whole anyway.
   */
  async function countEachOf(projectId: string, q: LogCountEachQuery): Promise<number[][]> {
    const projectRules = await rules.ofProject(projectId);
    const zeros = () => q.buckets.map(() => 0);
    const sets = q.filters.map((f) =>
      conditionsOf(
        projectId,
        countRange({ ...f, projectIds: [projectId], buckets: q.buckets }),
        projectRules,
      ),
    );
    const read = sets.flatMap((where, i) => (where === null ? [] : [{ where, i }]));
    const counts = q.filters.map(zeros);
    if (read.length === 0) return counts;
    const range = bucketsRange(q.buckets);
    const rows = await db.rows<Record<string, string | number>>(
      sql`${selectBucketIndex(q.buckets)},
          ${join(
            read.map((r, k) => sql`countIf(${and(r.where)}) AS ${raw(`n${String(k)}`)}`),
            ', ',
          )}
        FROM logs WHERE project_id = ${projectId} AND occurred_at >= ${time(range.since)}
          AND occurred_at < ${time(range.until)}
        GROUP BY bucket_index`,
    );
    read.forEach((r, k) => {
      counts[r.i] = countsByBucket(
        q,
        rows.map((row) => ({
          bucket_index: row.bucket_index ?? 0,
          n: row[`n${String(k)}`] ?? 0,
        })),
      );
    });
    return counts;
  }

  /** The log with this id in one of the projects (the newest, then by project), with its key. */
  async function find(projectIds: string[], id: string) {
    if (projectIds.length === 0) return null;
    const where = await idConditions(db, projectIds, [id]);
    if (where === null) return null;
    const row = await db.one<LogRow>(
      sql`SELECT ${COLUMNS} FROM logs WHERE ${where}
        ORDER BY occurred_at DESC, project_id LIMIT 1`,
    );
    return row;
  }

  return {
    async list(q) {
      if (q.projectIds.length === 0) return [];
      return list(q);
    },
    async count(q) {
      if (q.buckets.length === 0) return [];
      if (q.projectIds.length === 0) return q.buckets.map(() => 0);
      const hours = await valueHours(q.projectIds, countRange(q));
      const perProject = await Promise.all(q.projectIds.map((p) => countOf(p, q, hours)));
      return q.buckets.map((_, i) => perProject.reduce((sum, c) => sum + (c[i] ?? 0), 0));
    },
    async countEach(q) {
      if (q.buckets.length === 0) return q.filters.map(() => []);
      const perProject = await Promise.all(q.projectIds.map((p) => countEachOf(p, q)));
      return q.filters.map((_, f) =>
        q.buckets.map((_, i) => perProject.reduce((sum, c) => sum + (c[f]?.[i] ?? 0), 0)),
      );
    },
    catalog: (q) => readCatalog(db, q),
    async byId(projectIds, id) {
      const row = await find(projectIds, id);
      if (!row) return null;
      const projectRules = await rules.ofProject(row.project_id);
      return toLog(row, projectRules.get(row.triage_key) ?? null);
    },
    async rulesFor(projectId, logIds) {
      const found = new Map<string, LogRule>();
      const projectRules = await rules.ofProject(projectId);
      // Most projects have no rules: nothing to look up.
      if (projectRules.size === 0 || logIds.length === 0) return found;
      const where = await idConditions(db, [projectId], logIds);
      if (where === null) return found;
      const rows = await db.rows<{ id: string; triage_key: string }>(
        sql`SELECT id, triage_key FROM logs WHERE ${where}`,
      );
      for (const r of rows) {
        const rule = projectRules.get(r.triage_key);
        if (rule) found.set(r.id, rule);
      }
      return found;
    },
    async setRule({ projectId, logId, rule, at: when, by }) {
      const row = await find([projectId], logId);
      if (!row) return false;
      await rules.set({ projectId, triageKey: row.triage_key, rule, at: when, by });
      return true;
    },
  };
}

/**
 * Conditions that find logs by id along the primary key: the id ledger knows each log's
 * project and time, so the read narrows to those before it compares ids. Null: none stored.
 */
async function idConditions(
  db: ChDb,
  projectIds: string[],
  ids: readonly string[],
): Promise<SqlFragment | null> {
  const known = await db.rows<{ project_id: string; first: number; last: number }>(
    sql`SELECT project_id, min(${msColumn('occurred_at')}) AS first, max(${msColumn('occurred_at')}) AS last
      FROM accepted_ids WHERE project_id IN ${projectIds} AND kind = 'log' AND id IN ${[...ids]}
      GROUP BY project_id`,
  );
  if (known.length === 0) return null;
  return sql`(${join(
    known.map(
      (k) =>
        sql`(project_id = ${k.project_id} AND occurred_at >= ${time(k.first)} AND occurred_at <= ${time(k.last)})`,
    ),
    ' OR ',
  )}) AND id IN ${[...ids]}`;
}
