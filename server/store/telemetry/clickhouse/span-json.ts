import type { TraceScope } from '../../../core/store/telemetry/traces';
import { raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';
import { spansInScope } from './traces';

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

/** Spans a page holds: a page is one answer of the engine, held in memory whole. */
export const SPAN_JSON_PAGE = 20_000;

type LastSpan = { started_at: string; span_id: string; id: string; project_id: string };

/**
 * The span list of a trace as the JSON array the route sends, in chunks of a page each (one
 * span a line, `,` before each): a trace of any size is sent in bounded memory.
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
  const read = (after: SqlFragment) => {
    const page = db.bytes(sql`SELECT concat(',', ${raw(SPAN_OBJECT)}) FROM spans
      WHERE ${spansInScope(scope)} ${after} ORDER BY ${raw(ORDER)} LIMIT ${pageSize}
      FORMAT TabSeparatedRaw`);
    // A page read ahead whose answer is never sent (the client left) must not fail unseen.
    page.catch(() => undefined);
    return page;
  };
  let next = read(raw(''));
  let first = true;
  for (;;) {
    const page = await next;
    // Each span's JSON is one line: JSON text never holds a raw line break.
    let lines = 0;
    for (let i = page.indexOf(10); i !== -1; i = page.indexOf(10, i + 1)) lines += 1;
    if (lines === pageSize) {
      // The next page is read while this one is sent.
      const start = page.lastIndexOf(10, page.length - 2) + 1;
      const last = JSON.parse(page.subarray(start + 1, page.length - 1).toString()) as LastSpan;
      const at = sql`parseDateTime64BestEffort(${last.started_at}, 3, 'UTC')`;
      // Strictly after the last span in the order; the plain bound narrows the key range.
      next = read(sql`AND started_at >= ${at}
        AND (${raw(ORDER)}) > (${at}, ${last.span_id}, ${last.id}, ${typed(last.project_id, 'String')})`);
    }
    if (first) {
      if (lines === 0) {
        yield Buffer.from('[]');
        return;
      }
      // The first span's `,` becomes the array's opening bracket.
      page[0] = 0x5b;
      first = false;
    }
    if (lines < pageSize) {
      yield Buffer.concat([page, Buffer.from(']')]);
      return;
    }
    yield page;
  }
}
