import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogListQuery, LogRule } from '../../../core/store/telemetry/logs';
import {
  parseJsonPointer,
  type AttributeFilter,
} from '../../../domain/read-rules/attribute-filters';
import {
  clickhouseTestTelemetry,
  dropTestTelemetry,
  testsOnClickHouse,
} from '../../../test-support/test-clickhouse';
import { attributeMaps } from './attribute-maps';
import { openClickHouse, type ChDb } from './clickhouse-db';
import { migrateClickHouse } from './clickhouse-migrations';
import { clickhouseLogs } from './logs';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 1);
const HOURS = 120;
const PROJECTS = ['p-a', 'p-b', 'p-c'];
/** Project p-b's rule for its logs' triage key: error severity. */
const RULE: LogRule = { severity: 'error', ignored: false };

const telemetry = clickhouseTestTelemetry();
let db: ChDb;

/**
 * Logs of three projects, one every 20 minutes of 120 hours: `/region` in every hour (a value
 * too common to list its hours), `/user/id` rare (`u-rare` in a few hours, in two projects
 * only), and ties in time across projects.
 */
function logsOf(projectIndex: number) {
  const project = PROJECTS[projectIndex] ?? '';
  return Array.from({ length: HOURS * 3 }, (_, n) => {
    const attributes: Record<string, unknown> = {
      region: n % 2 === 0 ? 'eu-west-1' : 'us-east-1',
      user: { id: projectIndex !== 2 && n % 37 === 5 ? 'U-Rare' : `u-${String(n)}` },
    };
    // A quarter of the logs have these paths, half of them with the values a map gives for a
    // path it lacks ('', 0, false).
    if (n % 4 === 0)
      Object.assign(attributes, {
        note: n % 8 === 0 ? '' : 'Some',
        status: n % 8 === 0 ? 0 : 503,
        cache: { hit: n % 8 !== 0 },
      });
    return {
      project_id: project,
      occurred_at: START + n * 20 * 60_000,
      // Ids of the same time differ by project, so ties in time are broken by id.
      id: `${String(n).padStart(5, '0')}-${project}`,
      severity: n % 5 === 0 ? 'warning' : 'info',
      message: `message ${String(n)}`,
      attributes: JSON.stringify(attributes),
      triage_key: `key-${String(n % 3)}`,
      ...attributeMaps(attributes),
    };
  });
}

beforeAll(async () => {
  db = await openClickHouse(telemetry);
  await migrateClickHouse(db);
  for (const [i] of PROJECTS.entries()) await db.insertRows('logs', logsOf(i), `seed-${String(i)}`);
});

afterAll(async () => {
  await db.close();
  await dropTestTelemetry(telemetry);
});

const store = () =>
  clickhouseLogs(db, {
    ofProject: (p) => Promise.resolve(new Map(p === 'p-b' ? [['key-1', RULE]] : [])),
    set: () => Promise.resolve(),
  });

const query = (o: Partial<LogListQuery>): LogListQuery => ({
  projectIds: PROJECTS,
  severity: null,
  search: null,
  traceId: null,
  serviceName: null,
  release: null,
  environment: null,
  status: 'all',
  attributeFilters: [],
  since: null,
  until: null,
  after: null,
  limit: 25,
  ...o,
});

const eq = (path: string, value: string, caseSensitive = false): AttributeFilter => ({
  path,
  segments: parseJsonPointer(path) ?? [],
  type: 'string',
  operator: 'eq',
  value,
  caseSensitive,
});

/** What the list must answer: each project's own page, merged newest first (time, then id). */
async function mergedPages(q: LogListQuery) {
  const pages = await Promise.all(q.projectIds.map((p) => store().list({ ...q, projectIds: [p] })));
  return pages
    .flat()
    .sort((a, b) => b.occurredAt - a.occurredAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, q.limit);
}

const number = (
  path: string,
  operator: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte',
  value: number,
): AttributeFilter => ({
  path,
  segments: parseJsonPointer(path) ?? [],
  type: 'number',
  operator,
  value,
});

describe.skipIf(!testsOnClickHouse())('ClickHouse attribute filters and paths a log lacks', () => {
  type Attrs = { note?: string; status?: number; cache?: { hit: boolean } };
  const string = (
    operator: 'eq' | 'ne' | 'contains' | 'starts_with',
    value: string,
    caseSensitive = false,
  ): AttributeFilter => ({
    path: '/note',
    segments: ['note'],
    type: 'string',
    operator,
    value,
    caseSensitive,
  });
  const cases: [string, AttributeFilter, (a: Attrs) => boolean][] = [
    ["string ne 'x'", string('ne', 'x'), (a) => a.note !== undefined && a.note !== 'x'],
    ["string eq ''", string('eq', ''), (a) => a.note === ''],
    ["string contains ''", string('contains', ''), (a) => a.note !== undefined],
    ["string starts with 'so'", string('starts_with', 'so'), (a) => a.note === 'Some'],
    [
      "case-sensitive ne 'some'",
      string('ne', 'some', true),
      (a) => a.note === '' || a.note === 'Some',
    ],
    ["case-sensitive eq 'Some'", string('eq', 'Some', true), (a) => a.note === 'Some'],
    ['number eq 0', number('/status', 'eq', 0), (a) => a.status === 0],
    ['number ne 503', number('/status', 'ne', 503), (a) => a.status === 0],
    ['number lt 1', number('/status', 'lt', 1), (a) => a.status === 0],
    ['number gte 0', number('/status', 'gte', 0), (a) => a.status !== undefined],
    ['number eq 503', number('/status', 'eq', 503), (a) => a.status === 503],
    ['number gt 0', number('/status', 'gt', 0), (a) => a.status === 503],
    [
      'boolean eq false',
      {
        path: '/cache/hit',
        segments: ['cache', 'hit'],
        type: 'boolean',
        operator: 'eq',
        value: false,
      },
      (a) => a.cache?.hit === false,
    ],
    [
      'boolean ne true',
      {
        path: '/cache/hit',
        segments: ['cache', 'hit'],
        type: 'boolean',
        operator: 'ne',
        value: true,
      },
      (a) => a.cache?.hit === false,
    ],
    [
      'boolean eq true',
      {
        path: '/cache/hit',
        segments: ['cache', 'hit'],
        type: 'boolean',
        operator: 'eq',
        value: true,
      },
      (a) => a.cache?.hit === true,
    ],
  ];

  it.each(cases)('%s matches only the logs having the path', async (_, filter, matches) => {
    const listed = await store().list(query({ attributeFilters: [filter], limit: 2000 }));
    const expected = PROJECTS.flatMap((_, i) =>
      logsOf(i).filter((l) => matches(JSON.parse(l.attributes) as Attrs)),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(listed.map((l) => l.id).sort()).toEqual(expected.map((l) => l.id).sort());
  });
});

describe.skipIf(!testsOnClickHouse())('ClickHouse logs read over several projects at once', () => {
  const cases: [string, Partial<LogListQuery>][] = [
    ['no filter', {}],
    ['a common value', { attributeFilters: [eq('/region', 'EU-WEST-1')] }],
    ['a rare value', { attributeFilters: [eq('/user/id', 'u-rare')] }],
    ['a rare value, case-sensitive', { attributeFilters: [eq('/user/id', 'U-Rare', true)] }],
    [
      'a rare value and a range',
      {
        attributeFilters: [eq('/user/id', 'u-rare')],
        since: START + 30 * HOUR,
        until: START + 90 * HOUR,
      },
    ],
    ['severity after rules', { severity: 'error' }],
    ['a cursor', { after: { time: START + 60 * HOUR, id: '00180-p-b' } }],
  ];

  it.each(cases)('answers %s as the projects read one by one, merged', async (_, o) => {
    const q = query(o);
    const page = await store().list(q);
    expect(page.length).toBeGreaterThan(0);
    expect(page.map((l) => l.id)).toEqual((await mergedPages(q)).map((l) => l.id));
  });

  it('pages through matches older than its first time window, none skipped or repeated', async () => {
    // A page of one row reads each project's newest 200 logs first (67 of its 120 hours), then
    // the rest of the range; the matches are all in the first 27 hours.
    const seen: string[] = [];
    let after: LogListQuery['after'] = null;
    for (let page = 0; page < 40; page++) {
      const [log] = await store().list(query({ search: 'message 7', limit: 1, after }));
      if (!log) break;
      seen.push(log.id);
      after = { time: log.occurredAt, id: log.id };
    }
    const expected = PROJECTS.flatMap((_, i) => logsOf(i))
      .filter((l) => l.message.includes('message 7'))
      .sort((a, b) => b.occurred_at - a.occurred_at || (a.id < b.id ? 1 : -1));
    expect(seen).toEqual(expected.map((l) => l.id));
  });

  it('pages a common value and a number as the logs say, none skipped or repeated', async () => {
    // eu-west-1 is in all 120 hours of each project (too many to list its hours), 503 in a
    // quarter of those logs: pages of 7 cross the time windows, pages of 40 the projects.
    const filters = [eq('/region', 'eu-west-1'), number('/status', 'eq', 503)];
    const expected = PROJECTS.flatMap((_, i) => logsOf(i))
      .filter((l) => {
        const a = JSON.parse(l.attributes) as { region: string; status?: number };
        return a.region === 'eu-west-1' && a.status === 503;
      })
      .sort((a, b) => b.occurred_at - a.occurred_at || (a.id < b.id ? 1 : -1))
      .map((l) => l.id);
    for (const limit of [7, 40]) {
      const seen: string[] = [];
      let after: LogListQuery['after'] = null;
      for (let page = 0; page < 100; page++) {
        const logs = await store().list(query({ attributeFilters: filters, limit, after }));
        seen.push(...logs.map((l) => l.id));
        const last = logs[logs.length - 1];
        if (!last || logs.length < limit) break;
        after = { time: last.occurredAt, id: last.id };
      }
      expect(seen).toEqual(expected);
    }
  });

  it('finds every log of a rare value, in the projects holding it only', async () => {
    const all = await store().list(
      query({ attributeFilters: [eq('/user/id', 'u-rare')], limit: 1000 }),
    );
    const expected = PROJECTS.slice(0, 2).flatMap((p) =>
      logsOf(PROJECTS.indexOf(p)).filter((l) => l.attr_string['/user/id'] === 'u-rare'),
    );
    expect(all.map((l) => l.id).sort()).toEqual(expected.map((l) => l.id).sort());
    expect(new Set(all.map((l) => l.projectId))).toEqual(new Set(['p-a', 'p-b']));
  });

  it("attaches each project's own rules to its logs", async () => {
    const page = await store().list(query({ limit: 12 }));
    for (const l of page)
      expect(l.rule ?? null).toEqual(
        l.projectId === 'p-b' && Number(l.id.slice(0, 5)) % 3 === 1 ? RULE : null,
      );
  });

  it('counts a rare value as the logs it lists', async () => {
    const filters = [eq('/user/id', 'u-rare')];
    const buckets = [
      { start: START, end: START + 40 * HOUR },
      { start: START + 40 * HOUR, end: START + HOURS * HOUR },
    ];
    const base = { ...query({ attributeFilters: filters }) };
    const counts = await store().count({ ...base, buckets });
    const listed = await store().list({ ...base, limit: 1000 });
    expect(counts).toEqual(
      buckets.map(
        (b) => listed.filter((l) => l.occurredAt >= b.start && l.occurredAt < b.end).length,
      ),
    );
  });
});

describe.skipIf(!testsOnClickHouse())('ClickHouse pages of a value rare in every project', () => {
  // Two projects of their own (the reads above never name them): `u-7` in some hours of each,
  // at times both projects share, and in p-y partly under a key its rules ignore.
  const RARE = ['p-x', 'p-y'];
  const IGNORED: LogRule = { severity: null, ignored: true };
  const rareLogs = RARE.flatMap((project, p) =>
    Array.from({ length: 24 * 4 }, (_, n) => {
      const hour = Math.floor(n / 4);
      const holds = p === 0 ? hour % 3 === 0 : hour % 4 === 1 || hour % 6 === 0;
      const attributes = { user: { id: holds && n % 4 < 2 ? 'u-7' : `u-${String(n)}` } };
      return {
        project_id: project,
        // Two logs of a project at one time in some hours; the projects share their times.
        occurred_at: START + hour * HOUR + (n % 4 === 1 && hour % 2 === 0 ? 0 : (n % 4) * 600_000),
        id: `${String(n).padStart(5, '0')}-${project}`,
        severity: 'info',
        message: `rare ${String(n)}`,
        attributes: JSON.stringify(attributes),
        triage_key: p === 1 && hour % 12 === 1 ? 'key-ignored' : 'key-kept',
        ...attributeMaps(attributes),
      };
    }),
  );
  // The newest hour of all as an aborted batch leaves it in the value hours: counted, no log.
  const lastHour = START + 24 * HOUR;

  const rareStore = () =>
    clickhouseLogs(db, {
      ofProject: (p) => Promise.resolve(new Map(p === 'p-y' ? [['key-ignored', IGNORED]] : [])),
      set: () => Promise.resolve(),
    });

  beforeAll(async () => {
    await db.insertRows('logs', rareLogs, 'seed-rare');
    await db.insertRows(
      'log_value_hours',
      [
        {
          project_id: 'p-x',
          path: '/user/id',
          value: 'u-7',
          hour: new Date(lastHour).toISOString().slice(0, 19).replace('T', ' '),
          logs: 40,
        },
      ],
      'seed-rare-hours',
    );
  });

  /** The logs a read must page through, newest first (time, then id). */
  const expected = (status: 'all' | 'active', since = -Infinity, until = Infinity) =>
    rareLogs
      .filter(
        (l) =>
          l.attr_string['/user/id'] === 'u-7' &&
          (status === 'all' || l.triage_key !== 'key-ignored') &&
          l.occurred_at >= since &&
          l.occurred_at < until,
      )
      .sort((a, b) => b.occurred_at - a.occurred_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((l) => l.id);

  async function pageThrough(o: Partial<LogListQuery>, limit: number) {
    const seen: string[] = [];
    let after: LogListQuery['after'] = null;
    for (let page = 0; page < 200; page++) {
      const logs = await rareStore().list(
        query({ projectIds: RARE, attributeFilters: [eq('/user/id', 'U-7')], limit, after, ...o }),
      );
      seen.push(...logs.map((l) => l.id));
      const last = logs[logs.length - 1];
      if (!last || logs.length < limit) break;
      after = { time: last.occurredAt, id: last.id };
    }
    return seen;
  }

  it.each([1, 6, 500])(
    'pages of %i hold every log, none skipped or repeated, past counts above the logs',
    async (limit) => {
      // Ignored logs and the aborted batch's hour leave hours holding fewer logs than counted.
      const want = expected('active');
      expect(want.length).toBeGreaterThan(30);
      expect(await pageThrough({ status: 'active' }, limit)).toEqual(want);
    },
    // Pages of 1 are 30-odd reads: room for a machine busy with other tests.
    60_000,
  );

  it('pages ignored logs too when asked for all, within a range', async () => {
    const since = START + 5 * HOUR + 30 * 60_000;
    const until = START + 20 * HOUR;
    const want = expected('all', since, until);
    expect(want.length).toBeLessThan(expected('all').length);
    expect(await pageThrough({ status: 'all', since, until }, 3)).toEqual(want);
  });

  it('counts the logs it lists', async () => {
    const base = query({ projectIds: RARE, attributeFilters: [eq('/user/id', 'u-7')] });
    const buckets = [
      { start: START, end: START + 12 * HOUR },
      { start: START + 12 * HOUR, end: START + 25 * HOUR },
    ];
    const listed = await rareStore().list({ ...base, limit: 1000 });
    expect(await rareStore().count({ ...base, buckets })).toEqual(
      buckets.map(
        (b) => listed.filter((l) => l.occurredAt >= b.start && l.occurredAt < b.end).length,
      ),
    );
  });
});
