import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';

type Issue = { id: string; title: string; release: string; project_id: string };
type Bundle = {
  subject: Record<string, unknown>;
  selection: { used: string; rule: string | null; occurrence_id: string };
  occurrence: { trace_id: string | null; release: string; environment: string };
  stack: { frames: string[] } | null;
  trace: { trace_id: string; error_span_count: number } | null;
  logs: { trace_id: string }[];
  deployments: { release: string; environment: string; service_name: string }[];
  coverage: { unavailable: { section: string }[] };
};

const BAD = 'checkout-api@2.14.0';

describe('the demo world’s bad release, investigated', () => {
  let svc: RunningService<true>;
  let token = '';

  beforeAll(async () => {
    svc = await startService({ demo: true, config: { demoScale: 0.05 } });
    token = svc.creds.account_token;
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it('an issue of checkout-api@2.14.0 brings its deployment and the logs of its failing trace', async () => {
    const project = svc.creds.projects.find((p) => p.name === 'Checkout API');
    const list = await call(
      svc.baseUrl,
      'GET',
      `/api/telemetry/issues?project_id=${project?.id}&limit=1000`,
      { token },
    );
    const issue = (list.body as Issue[]).find((i) => i.title.includes("reading 'currency'"));
    expect(issue, 'the currency TypeError of the bad release').toBeDefined();

    const res = await call(
      svc.baseUrl,
      'GET',
      `/api/telemetry/issues/${issue?.id}/investigation?selection=recommended`,
      { token },
    );
    expect(res.status, res.text).toBe(200);
    const b = res.body as Bundle;
    expect(b.subject).toMatchObject({
      kind: 'issue',
      id: issue?.id,
      content_trust: 'untrusted_telemetry',
      release: BAD,
    });
    // Recommended: an occurrence with a trace and a stack.
    expect(b.selection).toMatchObject({ used: 'recommended', rule: 'trace_and_stack' });
    expect(b.occurrence.release).toBe(BAD);
    expect(b.stack?.frames.length).toBeGreaterThan(0);
    expect(b.trace?.trace_id).toBe(b.occurrence.trace_id);
    expect(b.trace?.error_span_count).toBeGreaterThan(0);
    expect(b.logs.length).toBeGreaterThan(0);
    expect(b.logs.every((l) => l.trace_id === b.occurrence.trace_id)).toBe(true);
    expect(b.deployments).toContainEqual(
      expect.objectContaining({
        release: BAD,
        environment: b.occurrence.environment,
        service_name: 'checkout-api',
      }),
    );
    expect(b.coverage.unavailable.map((u) => u.section)).not.toContain('deployments');
  });
});
