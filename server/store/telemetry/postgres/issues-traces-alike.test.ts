import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test-support/api-client';
import { at, issueItem, nativeBody, spanItem } from '../../../test-support/telemetry';
import { testDatabaseServer } from '../../../test-support/test-database';
import {
  ingestOnBoth,
  seededRandom,
  startBothStores,
  type StoreSide,
} from '../../../test-support/both-stores';

/**
 * Issue and trace reads on PostgreSQL answer what SQLite answers, over the same random
 * occurrences and spans spread over four months (several partitions): list filters on the
 * latest occurrence and effective severity and priority, trace discovery combining parts,
 * ties on trace start broken by trace id, and cursor walks. Issue ids are each store's own,
 * so issues are compared by fingerprint. Runs only with LOOKOUT_TEST_DATABASE_URL set.
 */
describe.skipIf(testDatabaseServer() === null)(
  'issues and traces on PostgreSQL and the default deployment alike',
  () => {
    const SEED = Number(process.env.LOOKOUT_ISSUES_SEED ?? Date.now() % 1_000_000);
    const { random, pick, chance } = seededRandom(SEED);

    const DAY = 86_400_000;
    const SEVERITIES = ['info', 'warning', 'error', 'critical'];
    const SERVICES = ['api', 'worker'];
    const RELEASES = ['r1', 'r2', 'r3'];
    const ENVIRONMENTS = ['production', 'staging'];
    const TRACES = Array.from({ length: 40 }, (_, i) => i.toString(16).padStart(32, '0'));

    type Side = StoreSide;
    let sqlite: Side;
    let pg: Side;

    // Every occurrence at its own time (days apart plus i seconds), so last_seen_at never ties
    // and the (store-specific) issue ids never decide an order.
    const occurrences = Array.from({ length: 240 }, (_, i) =>
      issueItem({
        occurred_at: at(-Math.floor(random() * 120) * DAY + i * 1000),
        fingerprint: `fp-${String(Math.floor(random() * 40))}`,
        severity: pick(SEVERITIES),
        message: `failure ${String(i)}`,
        service_name: pick(SERVICES),
        release: pick(RELEASES),
        environment: pick(ENVIRONMENTS),
        ...(chance(0.3) ? { trace_id: pick(TRACES) } : {}),
      }),
    );
    // Traces whose spans start on a few shared instants (ties broken by trace id), some
    // spanning months.
    const spans = Array.from({ length: 300 }, () => {
      const traceId = pick(TRACES);
      const base = -(parseInt(traceId.slice(-2), 16) % 5) * 25 * DAY;
      return spanItem({
        trace_id: traceId,
        started_at: at(base + (chance(0.2) ? -40 * DAY : 0) + Math.floor(random() * 3) * 1000),
        duration_ms: pick([0.5, 12.5, 300, 4000]),
        status: chance(0.2) ? 'error' : 'ok',
        name: pick(['GET /cart', 'POST /pay', 'job']),
        service_name: pick(SERVICES),
        release: pick(RELEASES),
        environment: pick(ENVIRONMENTS),
      });
    });

    beforeAll(async () => {
      ({ sqlite, pg } = await startBothStores());
      const batches = [];
      for (let i = 0; i < occurrences.length; i += 80)
        batches.push(
          nativeBody({
            issues: occurrences.slice(i, i + 80),
            trace_spans: spans.slice(i, i + 80),
          }),
        );
      batches.push(nativeBody({ trace_spans: spans.slice(occurrences.length) }));
      await ingestOnBoth([sqlite, pg], batches);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([sqlite.svc.close(), pg.svc.close()]);
    });

    /** The body of a read with the project id replaced (each store has its own project). */
    const read = async (side: Side, path: string, query: string) => {
      const url = `${path}?project_id=${side.projectId}${query}`;
      const res = await call(side.svc.baseUrl, 'GET', url, { token: side.token });
      expect(res.status, `seed ${SEED}: ${url}: ${res.text}`).toBe(200);
      return JSON.parse(res.text.replaceAll(side.projectId, '<project>')) as unknown;
    };

    /** Issues without their store-specific ids. */
    const withoutIds = (issues: Record<string, unknown>[]) =>
      issues.map(({ id: _id, ...rest }) => rest);

    const issueQuery = () => {
      const q: string[] = ['response_version=4'];
      if (chance(0.3)) q.push(`severity=${pick(SEVERITIES)}`);
      if (chance(0.3)) q.push(`priority=${pick(['high', 'medium', 'low'])}`);
      if (chance(0.3)) q.push(`service_name=${pick(SERVICES)}`);
      if (chance(0.3)) q.push(`release=${pick(RELEASES)}`);
      if (chance(0.3)) q.push(`environment=${pick(ENVIRONMENTS)}`);
      if (chance(0.3)) q.push(`since=${encodeURIComponent(at(-Math.floor(random() * 120) * DAY))}`);
      return q.map((x) => `&${x}`).join('');
    };

    it('lists the same issues in the same order for random filters', async () => {
      let found = 0;
      for (let i = 0; i < 40; i++) {
        const q = `${issueQuery()}&limit=1000`;
        const [a, b] = await Promise.all([
          read(sqlite, '/api/telemetry/issues', q),
          read(pg, '/api/telemetry/issues', q),
        ]);
        const issues = (body: unknown) => withoutIds(body as Record<string, unknown>[]);
        expect(issues(b), `seed ${SEED}: ${decodeURIComponent(q)}`).toEqual(issues(a));
        if (issues(a).length > 0) found++;
      }
      // Most queries match something: equal answers are not just empty ones.
      expect(found, `seed ${SEED}`).toBeGreaterThan(20);
    }, 120_000);

    it('walks the same issue pages and occurrence pages with cursors', async () => {
      for (let i = 0; i < 6; i++) {
        const q = `${issueQuery()}&pagination=cursor&limit=${String(1 + Math.floor(random() * 7))}`;
        const walk = async (side: Side) => {
          const seen: Record<string, unknown>[] = [];
          let cursor: { time: string; id: string } | null = null;
          do {
            const extra: string = cursor
              ? `&cursor_time=${encodeURIComponent(cursor.time)}&cursor_id=${cursor.id}`
              : '';
            const page = (await read(side, '/api/telemetry/issues', q + extra)) as {
              issues: Record<string, unknown>[];
              next_cursor: { time: string; id: string } | null;
            };
            seen.push(...page.issues);
            cursor = page.next_cursor;
          } while (cursor !== null && seen.length <= occurrences.length);
          return seen;
        };
        const [a, b] = await Promise.all([walk(sqlite), walk(pg)]);
        expect(withoutIds(b), `seed ${SEED}: ${decodeURIComponent(q)}`).toEqual(withoutIds(a));
      }

      // Occurrences carry the ids they were sent with: their pages compare whole.
      const fingerprint = pick(occurrences).fingerprint as string;
      const events = async (side: Side) => {
        const list = (await read(side, '/api/telemetry/issues', '&limit=1000')) as {
          id: string;
          fingerprint: string;
        }[];
        const id = list.find((x) => x.fingerprint === fingerprint)?.id ?? '';
        const seen: unknown[] = [];
        let cursor: { time: string; id: string } | null = null;
        do {
          const extra: string = cursor
            ? `&cursor_time=${encodeURIComponent(cursor.time)}&cursor_id=${cursor.id}`
            : '';
          const res = await call(
            side.svc.baseUrl,
            'GET',
            `/api/telemetry/issues/${id}/events?pagination=cursor&limit=2${extra}`,
            { token: side.token },
          );
          expect(res.status, res.text).toBe(200);
          const page = JSON.parse(
            res.text.replaceAll(side.projectId, '<project>').replaceAll(id, '<issue>'),
          ) as { events: unknown[]; next_cursor: { time: string; id: string } | null };
          seen.push(...page.events);
          cursor = page.next_cursor;
        } while (cursor !== null && seen.length <= occurrences.length);
        return seen;
      };
      const [a, b] = await Promise.all([events(sqlite), events(pg)]);
      expect(a.length).toBeGreaterThan(0);
      expect(b, `seed ${SEED}: ${fingerprint}`).toEqual(a);
    }, 120_000);

    const traceQuery = () => {
      const q: string[] = [];
      if (chance(0.3)) q.push(`status=${pick(['ok', 'error'])}`);
      if (chance(0.3)) q.push(`min_duration_ms=${pick(['0', '13', '1000', '5000'])}`);
      if (chance(0.3)) q.push(`service_name=${pick(SERVICES)}`);
      if (chance(0.3)) q.push(`release=${pick(RELEASES)}`);
      if (chance(0.3)) q.push(`environment=${pick(ENVIRONMENTS)}`);
      if (chance(0.3)) q.push(`since=${encodeURIComponent(at(-Math.floor(random() * 150) * DAY))}`);
      return q.map((x) => `&${x}`).join('');
    };

    it('discovers the same traces in the same order, also page by page', async () => {
      let found = 0;
      for (let i = 0; i < 40; i++) {
        const q = `${traceQuery()}&limit=1000`;
        const [a, b] = await Promise.all([
          read(sqlite, '/api/telemetry/traces', q),
          read(pg, '/api/telemetry/traces', q),
        ]);
        expect(b, `seed ${SEED}: ${decodeURIComponent(q)}`).toEqual(a);
        if ((a as unknown[]).length > 0) found++;
      }
      expect(found, `seed ${SEED}`).toBeGreaterThan(20);
      for (let i = 0; i < 6; i++) {
        const q = `${traceQuery()}&pagination=cursor&limit=${String(1 + Math.floor(random() * 5))}`;
        const walk = async (side: Side) => {
          const seen: unknown[] = [];
          let cursor: { time: string; trace_id: string } | null = null;
          do {
            const extra: string = cursor
              ? `&cursor_time=${encodeURIComponent(cursor.time)}&cursor_trace_id=${cursor.trace_id}`
              : '';
            const page = (await read(side, '/api/telemetry/traces', q + extra)) as {
              traces: unknown[];
              next_cursor: { time: string; trace_id: string } | null;
            };
            seen.push(...page.traces);
            cursor = page.next_cursor;
          } while (cursor !== null && seen.length <= TRACES.length);
          return seen;
        };
        const [a, b] = await Promise.all([walk(sqlite), walk(pg)]);
        expect(b, `seed ${SEED}: ${decodeURIComponent(q)}`).toEqual(a);
      }
    }, 120_000);

    it('shows the same spans and summary of a trace', async () => {
      for (let i = 0; i < 6; i++) {
        const traceId = pick(TRACES);
        const q = chance(0.5) ? `&release=${pick(RELEASES)}` : '';
        for (const path of [
          `/api/telemetry/traces/${traceId}`,
          `/api/telemetry/traces/${traceId}/summary`,
        ]) {
          // A trace without spans in scope is a 404 on both.
          const raw = async (side: Side) => {
            const res = await call(
              side.svc.baseUrl,
              'GET',
              `${path}?project_id=${side.projectId}${q}`,
              {
                token: side.token,
              },
            );
            // Issue ids are each store's own.
            const text = res.text
              .replaceAll(side.projectId, '<project>')
              .replace(/"issue_id":"[0-9a-f-]{36}"/g, '"issue_id":"<issue>"');
            // Compared as JSON: how each engine escapes a string (`\/` or `/`) is its own.
            return { status: res.status, body: JSON.parse(text) as unknown };
          };
          const [a, b] = await Promise.all([raw(sqlite), raw(pg)]);
          expect(b, `seed ${SEED}: ${path}${q}`).toEqual(a);
        }
      }
    }, 120_000);

    it('pages the spans of a trace in the order of the span list, ties on start included', async () => {
      for (const side of [sqlite, pg]) {
        const { traces } = side.svc.deps.store;
        for (const traceId of TRACES.slice(0, 8)) {
          const scope = { traceId, projectIds: [side.projectId], release: null, environment: null };
          const whole = (await traces.spans(scope)).map((s) => s.id);
          for (const size of [1, 2, 3]) {
            const paged: string[] = [];
            for await (const page of traces.spanPages(scope, size))
              paged.push(...page.map((s) => s.id));
            expect(paged, `seed ${SEED}: ${traceId} by ${String(size)}`).toEqual(whole);
          }
        }
      }
    });
  },
);
