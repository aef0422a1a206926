import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test-support/api-client';
import { at, logItem, nativeBody } from '../../../test-support/telemetry';
import { testDatabaseServer } from '../../../test-support/test-database';
import {
  ingestOnBoth,
  seededRandom,
  startBothStores,
  type StoreSide,
} from '../../../test-support/both-stores';

/**
 * The log list and attribute catalog on PostgreSQL answer what the default deployment
 * (ClickHouse) answers, over the same
 * random logs: attribute filters of every type and operator (SQLite keeps an index key in one
 * column, numbers ordering before text; PostgreSQL splits it into key_num and key_text), case
 * folding beyond ASCII, ties on time broken by id, cursors, months in different partitions.
 * Runs only with LOOKOUT_TEST_DATABASE_URL set.
 */
describe.skipIf(testDatabaseServer() === null)(
  'logs on PostgreSQL and the default deployment alike',
  () => {
    const SEED = Number(process.env.LOOKOUT_LOGS_SEED ?? Date.now() % 1_000_000);
    const { random, pick, chance } = seededRandom(SEED);

    const WORDS = [
      'Payment',
      'PAYMENT',
      'pay',
      'İstanbul',
      'straße',
      'ΣΊΣΥΦΟΣ',
      'naïve',
      'a\u0000b',
      '%_',
      'Ünïcode',
    ];
    const NUMBERS = [-1, 0, 0.5, 1, 5, 10, 200, 404, 500, 1e300, -1e-9, 9007199254740991];
    const SEVERITIES = ['debug', 'info', 'warning', 'error', 'critical'];
    const DAY = 86_400_000;

    type Side = StoreSide;
    let sqlite: Side;
    let pg: Side;

    const attributes = () => {
      const a: Record<string, unknown> = {};
      if (chance(0.8)) a.s = chance(0.5) ? pick(WORDS) : `${pick(WORDS)} ${pick(WORDS)}`;
      if (chance(0.7)) a.n = pick(NUMBERS);
      if (chance(0.5)) a.b = chance(0.5);
      // One path holding a number in some logs and a string in others.
      if (chance(0.6)) a.mixed = chance(0.5) ? pick([5, 10, 50]) : pick(['5', '10', 'abc', 'ABC']);
      if (chance(0.4)) a.user = { plan: pick(['Pro', 'pro', 'FREE', 'free', 'ß']) };
      return a;
    };

    const logs = Array.from({ length: 240 }, (_, i) =>
      logItem({
        // Four months (three partitions at least), and many logs sharing a time.
        occurred_at: at(-Math.floor(random() * 120) * DAY + (i % 3) * 1000),
        severity: pick(SEVERITIES),
        message: `${pick(WORDS)} ${i} ${pick(WORDS)}`,
        attributes: attributes(),
        service_name: pick(['api', 'worker']),
        release: pick(['r1', 'r2']),
        environment: pick(['production', 'staging']),
      }),
    );

    beforeAll(async () => {
      ({ sqlite, pg } = await startBothStores());
      const batches = [];
      for (let i = 0; i < logs.length; i += 80)
        batches.push(nativeBody({ logs: logs.slice(i, i + 80) }));
      await ingestOnBoth([sqlite, pg], batches);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([sqlite.svc.close(), pg.svc.close()]);
    });

    /** The body of a read, without the project ids (each store has its own project). */
    const read = async (side: Side, path: string, query: string | null) => {
      const url = query === null ? path : `${path}?project_id=${side.projectId}${query}`;
      const res = await call(side.svc.baseUrl, 'GET', url, { token: side.token });
      expect(res.status, `seed ${SEED}: ${url}: ${res.text}`).toBe(200);
      return JSON.parse(res.text.replaceAll(side.projectId, '<project>')) as unknown;
    };

    const STRING_OPS = ['eq', 'ne', 'contains', 'starts_with', 'exists'];
    const NUMBER_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists'];
    const fragment = (w: string) => {
      const cut = Math.floor(random() * w.length);
      const s = w.slice(cut, cut + 1 + Math.floor(random() * 4)) || w;
      return chance(0.5) ? s.toUpperCase() : s;
    };
    const filter = () => {
      switch (pick(['string', 'string', 'number', 'boolean', 'mixed'])) {
        case 'string': {
          const operator = pick(STRING_OPS);
          const path = pick(['/s', '/user/plan', '/mixed']);
          if (operator === 'exists') return { path, type: 'string', operator };
          const word = pick([...WORDS, 'Pro', 'ABC', '5']);
          const value = operator === 'eq' || operator === 'ne' ? word : fragment(word);
          return { path, type: 'string', operator, value, case_sensitive: chance(0.3) };
        }
        case 'number': {
          const operator = pick(NUMBER_OPS);
          const path = pick(['/n', '/mixed']);
          if (operator === 'exists') return { path, type: 'number', operator };
          // Filter values stay within ±2^53 (the read rules refuse more); stored ones need not.
          const value = pick([...NUMBERS.filter((n) => Math.abs(n) < 2 ** 53), 7, 50, -5]);
          return { path, type: 'number', operator, value };
        }
        case 'boolean': {
          const operator = pick(['eq', 'ne', 'exists']);
          if (operator === 'exists') return { path: '/b', type: 'boolean', operator };
          return { path: '/b', type: 'boolean', operator, value: chance(0.5) };
        }
        default:
          return {
            path: pick(['/mixed', '/s', '/n']),
            type: pick(['string', 'number']),
            operator: 'exists',
          };
      }
    };
    const listQuery = () => {
      const q: string[] = [];
      if (chance(0.8)) {
        const filters = Array.from({ length: 1 + Math.floor(random() * 3) }, filter);
        q.push(`attribute_filters=${encodeURIComponent(JSON.stringify(filters))}`);
      }
      if (chance(0.2)) q.push(`severity=${pick(SEVERITIES.slice(1))}`);
      if (chance(0.2)) q.push(`search=${encodeURIComponent(fragment(pick(WORDS)))}`);
      if (chance(0.2)) q.push(`service_name=${pick(['api', 'worker'])}`);
      if (chance(0.2)) q.push(`since=${encodeURIComponent(at(-Math.floor(random() * 120) * DAY))}`);
      return q.map((x) => `&${x}`).join('');
    };

    it('lists the same logs in the same order for random filters', async () => {
      for (let i = 0; i < 120; i++) {
        const q = listQuery();
        const [a, b] = await Promise.all([
          read(sqlite, '/api/logs', `${q}&limit=1000`),
          read(pg, '/api/logs', `${q}&limit=1000`),
        ]);
        const ids = (body: unknown) => (body as { id: string }[]).map((l) => l.id);
        expect(ids(b), `seed ${SEED}: ${decodeURIComponent(q)}`).toEqual(ids(a));
        expect(b, `seed ${SEED}: ${decodeURIComponent(q)}`).toEqual(a);
      }
    }, 120_000);

    it('walks the same pages with cursors', async () => {
      for (let i = 0; i < 8; i++) {
        const q = `${listQuery()}&pagination=cursor&limit=${1 + Math.floor(random() * 7)}`;
        const walk = async (side: Side) => {
          const seen: string[] = [];
          let cursor: { time: string; id: string } | null = null;
          do {
            const extra: string = cursor
              ? `&cursor_time=${encodeURIComponent(cursor.time)}&cursor_id=${cursor.id}`
              : '';
            const page = (await read(side, '/api/logs', q + extra)) as {
              logs: { id: string }[];
              next_cursor: { time: string; id: string } | null;
            };
            seen.push(...page.logs.map((l) => l.id));
            cursor = page.next_cursor;
          } while (cursor !== null && seen.length <= logs.length);
          return seen;
        };
        const [a, b] = await Promise.all([walk(sqlite), walk(pg)]);
        expect(b, `seed ${SEED}: ${decodeURIComponent(q)}`).toEqual(a);
      }
    }, 120_000);

    it('gives the same attribute catalog and coverage', async () => {
      for (let i = 0; i < 30; i++) {
        const q: string[] = [
          `since=${encodeURIComponent(at(-Math.floor(random() * 120) * DAY - 1234))}`,
        ];
        if (chance(0.3)) q.push(`severity=${pick(SEVERITIES.slice(1))}`);
        if (chance(0.3)) q.push(`type=${pick(['string', 'number', 'boolean'])}`);
        if (chance(0.3)) q.push(`search=${pick(['s', 'MIX', 'plan', 'n'])}`);
        const query = q.map((x) => `&${x}`).join('');
        const [a, b] = await Promise.all([
          read(sqlite, '/api/logs/attributes', query),
          read(pg, '/api/logs/attributes', query),
        ]);
        expect(b, `seed ${SEED}: ${query}`).toEqual(a);
      }
    }, 120_000);

    it('finds a log by id the same way', async () => {
      const log = pick(logs);
      const [a, b] = await Promise.all([
        read(sqlite, `/api/logs/${log.id}`, null),
        read(pg, `/api/logs/${log.id}`, null),
      ]);
      expect(b).toEqual(a);
      const missing = randomUUID();
      for (const side of [sqlite, pg]) {
        const res = await call(side.svc.baseUrl, 'GET', `/api/logs/${missing}`, {
          token: side.token,
        });
        expect(res.status).toBe(404);
      }
    });
  },
);
