import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test-support/api-client';
import { addPerson, type Person } from '../test-support/issues';
import { startService, type RunningService } from '../test-support/start-service';
import {
  NATIVE,
  createTenant,
  ingest,
  logItem,
  nativeBody,
  type Tenant,
} from '../test-support/telemetry';
import { evaluateDueRules, windowEndAt } from './alert-evaluator';

const MINUTE = 60_000;
const silent = { error: () => undefined };

describe.skipIf(!process.env.LOOKOUT_TEST_DATABASE_URL)(
  'alert evaluation on two instances of one PostgreSQL',
  () => {
    let a: RunningService<false>;
    let b: RunningService<false>;
    let tenant: Tenant;
    let admin: Person;

    beforeAll(async () => {
      const config = { accessTokenTtlSeconds: 7 * 24 * 3600 };
      a = await startService({ config });
      b = await startService({ sameDatabaseAs: a, clock: a.clock, config });
      tenant = await createTenant(a);
      admin = await addPerson(a, tenant.organizationId, 'admin');
    }, 60_000);
    afterAll(async () => {
      await b.close();
      await a.close();
    });

    it('records each window of each rule once and opens one incident per breach', async () => {
      const ids: string[] = [];
      for (let n = 0; n < 12; n++) {
        const res = await call(a.baseUrl, 'POST', '/api/alerts/rules', {
          token: admin.token,
          json: {
            project_id: tenant.projectId,
            name: `rule ${n}`,
            kind: 'log',
            condition: {
              query: { search: 'lease-test' },
              op: 'above',
              threshold: 0,
              window_minutes: 5,
            },
            notify: { inbox: { user_id: admin.accountId }, webhook_ids: [] },
          },
        });
        expect(res.status, res.text).toBe(200);
        ids.push((res.body as { id: string }).id);
      }
      a.clock.set(windowEndAt(a.clock.now(), MINUTE) + MINUTE + 1_000);
      const res = await ingest(
        a,
        NATIVE,
        tenant.ingestKey,
        nativeBody({
          logs: [
            logItem({ occurred_at: new Date(a.clock.now()).toISOString(), message: 'lease-test' }),
          ],
        }),
      );
      expect(res.status, res.text).toBe(200);
      // Both instances evaluate the same due rules at the same moments, concurrently.
      let recorded = 0;
      for (let minute = 0; minute < 8; minute++) {
        a.clock.advance(MINUTE);
        const [x, y] = await Promise.all(
          [a, b].map((svc, i) =>
            evaluateDueRules({
              store: svc.deps.store,
              now: a.clock.now,
              log: silent,
              everyMs: MINUTE,
              holder: `i${i}`,
            }),
          ),
        );
        recorded += (x ?? 0) + (y ?? 0);
      }
      // 12 rules, one window per minute each: every window recorded by exactly one instance.
      expect(recorded).toBe(12 * 8);
      for (const id of ids) {
        const list = await call(
          b.baseUrl,
          'GET',
          `/api/alerts/incidents?project_id=${tenant.projectId}&rule_id=${id}`,
          {
            token: admin.token,
          },
        );
        const incidents = (list.body as { incidents: { state: string }[] }).incidents;
        expect(incidents.map((i) => i.state)).toEqual(['resolved']);
      }
      const inbox = await call(a.baseUrl, 'GET', '/api/alerts/notifications?limit=200', {
        token: admin.token,
      });
      expect((inbox.body as { notifications: unknown[] }).notifications).toHaveLength(12 * 2);
    }, 60_000);
  },
);
