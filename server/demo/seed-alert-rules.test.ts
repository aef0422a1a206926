import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateDueRules, windowEndAt } from '../alerts/alert-evaluator';
import { call } from '../test-support/api-client';
import { startService, type RunningService } from '../test-support/start-service';
import { NATIVE, ingest, logItem, nativeBody } from '../test-support/telemetry';
import { PROJECT_NAMES } from './world-model';
import { DEMO_ALERT_RULES, seedDemoAlertRules } from './seed-alert-rules';

const MINUTE = 60_000;

describe('demo alert rules', () => {
  let svc: RunningService<true>;
  let projectId = '';
  let key = '';

  beforeAll(async () => {
    svc = await startService({ demo: true, config: { accessTokenTtlSeconds: 7 * 24 * 3600 } });
    const project = svc.creds.projects.find((p) => p.name === PROJECT_NAMES.api);
    projectId = project?.id ?? '';
    key = project?.ingest_key ?? '';
    const owner = await svc.deps.store.accounts.byEmail(svc.creds.email);
    await seedDemoAlertRules({
      app: svc.app,
      credentials: svc.creds,
      ownerAccountId: owner?.id ?? '',
    });
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it('fires the crash rule on the trickle’s critical checkout-api log, then resolves it', async () => {
    const token = svc.creds.account_token;
    const rules = await call(svc.baseUrl, 'GET', `/api/alerts/rules?project_id=${projectId}`, {
      token,
    });
    expect((rules.body as { rules: { name: string }[] }).rules.map((r) => r.name).sort()).toEqual(
      DEMO_ALERT_RULES.map((r) => r.name).sort(),
    );
    const evaluate = () =>
      evaluateDueRules({
        store: svc.deps.store,
        now: svc.clock.now,
        log: { error: () => undefined },
        everyMs: MINUTE,
        holder: 'demo',
      });
    svc.clock.set(windowEndAt(svc.clock.now(), MINUTE) + 10_000);
    await evaluate();
    const res = await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({
        logs: [
          logItem({
            occurred_at: new Date(svc.clock.now()).toISOString(),
            severity: 'fatal',
            message: 'uncaught exception; process exiting so the orchestrator restarts it',
          }),
        ],
      }),
    );
    expect(res.status, res.text).toBe(200);
    svc.clock.advance(MINUTE);
    await evaluate();
    const bell = async () =>
      (
        (await call(svc.baseUrl, 'GET', '/api/alerts/notifications', { token })).body as {
          notifications: { rule_name: string; event: string }[];
        }
      ).notifications
        .filter((n) => n.rule_name === 'Checkout API crashed')
        .map((n) => n.event);
    expect(await bell()).toEqual(['firing']);
    svc.clock.advance(6 * MINUTE);
    await evaluate();
    expect(await bell()).toEqual(['resolved', 'firing']);
  });
});
