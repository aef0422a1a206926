import type { TraceScope } from '../../../core/store/telemetry/traces';
import { raw, sql } from '../../rows/sql';
import type { ChDb } from './clickhouse-db';

import { spansInScope, startRanges } from './traces';

/**
 * The span list's JSON (`spanView` in views/telemetry-views.ts, field for field) written by
 * ClickHouse itself: a trace of 100,000 spans is 60 MB of JSON, and building it from row
 * objects in the service (parse the rows, then stringify the views) took most of the read's
 * time. Attributes go out as stored (the JSON text `JSON.stringify` wrote at ingest, which a
 * parse and stringify again would give back unchanged); each event gets `attributes: {}` when
 * it has none, as the view gives it. span-json.test.ts compares the result with the view's.
 */
const SPAN_OBJECT = `concat(
  '{"id":', toJSONString(id),
  ',"project_id":', toJSONString(toString(project_id)),
  ',"trace_id":', toJSONString(trace_id),
  ',"span_id":', toJSONString(span_id),
  ',"parent_span_id":', ifNull(toJSONString(parent_span_id), 'null'),
  ',"name":', toJSONString(name),
  ',"operation":', ifNull(toJSONString(operation), 'null'),
  ',"kind":', ifNull(toJSONString(kind), 'null'),
  ',"service_name":', toJSONString(toString(service_name)),
  ',"environment":', toJSONString(toString(environment)),
  ',"release":', toJSONString(toString(release)),
  ',"started_at":"', replaceOne(toString(started_at), ' ', 'T'), 'Z"',
  ',"duration_ms":', toString(duration_ms),
  ',"status":', if(status = 'error', '"error"', 'null'),
  ',"status_message":', ifNull(toJSONString(status_message), 'null'),
  ',"attributes":', attributes,
  ',"events":', if(events = '[]', '[]', concat('[', arrayStringConcat(arrayMap(e -> concat(
      '{"name":', JSONExtractRaw(e, 'name'),
      ',"timestamp":', JSONExtractRaw(e, 'timestamp'),
      ',"attributes":', if(JSONType(e, 'attributes') IN ('Null', 'Nothing'), '{}', JSONExtractRaw(e, 'attributes')),
      '}'), JSONExtractArrayRaw(events)), ','), ']')),
  ',"sdk_name":', toJSONString(toString(sdk_name)),
  ',"sdk_version":', toJSONString(toString(sdk_version)),
  ',"next_action":{"code":"inspect_trace","target":"trace_summary"}}')`;

/**
 * The list's order: start, span id, then the item id (where the other stores take the order
 * of arrival; only spans repeating a span id at the same start differ), then the project.
 */
const ORDER = 'started_at, span_id, id, project_id';

/**
 * Each span's JSON is built before the page is sorted, so the sort moves one string and the
 * keys. By default the engine builds it after the sort (right for a page under a `LIMIT`),
 * and the sort then carries every column, merging the nine `LowCardinality` ones row by row:
 * about a third of the list's CPU (bench/README.md, traces).
 */
const OBJECTS_BEFORE_SORT = 'SETTINGS query_plan_execute_functions_after_sorting = 0';

/** Spans a page holds (more when many spans share its last start). */
export const SPAN_JSON_PAGE = 20_000;

/**
 * The span list of a trace as the JSON array the route sends, in chunks of a page each (one
 * span a line, `,` before each): a trace of any size is sent in bounded memory. Pages are
 * ranges of start times, every `pageSize`-th start of the trace's sorted starts opening one,
 * so each page reads only its own range of the spans' key (a page after a `LIMIT` would read,
 * and sort, every span after the previous page again); the next page is read while one is
 * sent.
 */
export async function* spanListJson(
  db: ChDb,
  scope: TraceScope,
  pageSize = SPAN_JSON_PAGE,
): AsyncGenerator<Buffer> {
  if (scope.projectIds.length === 0) {
    yield Buffer.from('[]');
    return;
  }
  const ranges = await startRanges(db, scope, pageSize);
  const read = (k: number) => {
    const page = db.bytes(sql`SELECT concat(',', ${raw(SPAN_OBJECT)}) FROM spans
      WHERE ${spansInScope(scope)} AND ${ranges[k] ?? raw('1')}
      ORDER BY ${raw(ORDER)} ${raw(OBJECTS_BEFORE_SORT)} FORMAT TabSeparatedRaw`);
    // A page read ahead whose answer is never sent (the client left) must not fail unseen.
    page.catch(() => undefined);
    return page;
  };
  let opened = false;
  let next = ranges.length > 0 ? read(0) : null;
  for (let k = 0; next !== null; k++) {
    const page = await next;
    next = k + 1 < ranges.length ? read(k + 1) : null;
    // Spans ingested since the bounds were read may leave a page empty.
    if (page.length === 0) continue;
    if (!opened) {
      // The first span's `,` becomes the array's opening bracket.
      page[0] = 0x5b;
      opened = true;
    }
    yield page;
  }
  yield Buffer.from(opened ? ']' : '[]');
}
