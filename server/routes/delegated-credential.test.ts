import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePersonalToken } from '../auth/credentials';
import { newId } from '../domain/secrets';
import { call, expectError, type ApiResponse } from '../test-support/api-client';
import { putDeployment } from '../test-support/investigation-world';
import { startService, type RunningService } from '../test-support/start-service';
import {
  SDK,
  T0,
  actionItem,
  addIngestKey,
  at,
  createTenant,
  ingest,
  issueItem,
  logItem,
  metricItem,
  sdkBody,
  sdkEvent,
  spanItem,
} from '../test-support/telemetry';

/**
 * The spec's delegated credential (a tool connection) on every read and investigation route:
 * inside its scope it reads exactly what the account reads; a project outside it is
 * `403 forbidden`; with no project given it reads only the covered projects.
 */

type Row = Record<string, unknown>;
type Ids = {
  project: string;
  issue: string;
  occurrence: string;
  log: string;
  action: string;
  span: string;
  deployment: string;
};
type Req = { method: 'GET' | 'POST'; path: string; json?: unknown };

const TRACE = 'a'.repeat(32);
const SINCE = '2025-03-02T00:00:00.000Z';
const UNTIL = '2025-03-03T09:00:00.000Z';
const MANAGE = { code: 'manage_tool_connection', target: 'tool_connections' };

/** Routes that name their project (query or body): outside the scope they give 403. */
const NAMED: [string, (p: string) => Req][] = [
  ['logs', (p) => ({ method: 'GET', path: `/api/logs?project_id=${p}` })],
  [
    'log attributes',
    (p) => ({ method: 'GET', path: `/api/logs/attributes?project_id=${p}&since=7d` }),
  ],
  ['issues', (p) => ({ method: 'GET', path: `/api/telemetry/issues?project_id=${p}&since=7d` })],
  [
    'issue assignees',
    (p) => ({ method: 'GET', path: `/api/telemetry/issues/assignees?project_id=${p}` }),
  ],
  [
    'issue ownership',
    (p) => ({ method: 'GET', path: `/api/telemetry/issues/ownership?project_id=${p}` }),
  ],
  ['actions', (p) => ({ method: 'GET', path: `/api/telemetry/actions?project_id=${p}&since=7d` })],
  ['metrics', (p) => ({ method: 'GET', path: `/api/telemetry/metrics?project_id=${p}&since=7d` })],
  [
    'metric series',
    (p) => ({
      method: 'GET',
      path: `/api/telemetry/metrics/series?project_id=${p}&name=web.vitals.lcp&since=${SINCE}&until=${UNTIL}`,
    }),
  ],
  [
    'releases',
    (p) => ({ method: 'GET', path: `/api/telemetry/releases?project_id=${p}&since=7d` }),
  ],
  ['traces', (p) => ({ method: 'GET', path: `/api/telemetry/traces?project_id=${p}&since=7d` })],
  [
    'trace spans',
    (p) => ({ method: 'GET', path: `/api/telemetry/traces/${TRACE}?project_id=${p}` }),
  ],
  [
    'trace summary',
    (p) => ({ method: 'GET', path: `/api/telemetry/traces/${TRACE}/summary?project_id=${p}` }),
  ],
  [
    'volume',
    (p) => ({
      method: 'GET',
      path: `/api/telemetry/summary/volume?project_id=${p}&since=${SINCE}&until=${UNTIL}`,
    }),
  ],
  ['deployments', (p) => ({ method: 'GET', path: `/api/telemetry/deployments?project_id=${p}` })],
  [
    'analytics overview',
    (p) => ({
      method: 'GET',
      path: `/api/telemetry/analytics/overview?project_id=${p}&since=${SINCE}&until=${UNTIL}`,
    }),
  ],
  [
    'analytics properties',
    (p) => ({
      method: 'GET',
      path: `/api/telemetry/analytics/properties?project_id=${p}&since=${SINCE}&until=${UNTIL}`,
    }),
  ],
  [
    'analytics funnel',
    (p) => ({
      method: 'POST',
      path: '/api/telemetry/analytics/funnel',
      json: {
        project_id: p,
        since: SINCE,
        until: UNTIL,
        analysis_unit: 'session',
        conversion_window_seconds: 3600,
        steps: [
          { kind: 'interaction', event_name: 'checkout_started' },
          { kind: 'interaction', event_name: 'checkout_done' },
        ],
      },
    }),
  ],
  [
    'span investigation',
    (p) => ({
      method: 'GET',
      path: `/api/telemetry/traces/${TRACE}/spans/${'1'.repeat(16)}/investigation?project_id=${p}`,
    }),
  ],
  [
    'metric investigation',
    (p) => ({
      method: 'GET',
      path: `/api/telemetry/metrics/investigation?project_id=${p}&name=web.vitals.lcp&since=${SINCE}&until=${UNTIL}`,
    }),
  ],
  [
    'release investigation',
    (p) => ({
      method: 'GET',
      path: `/api/telemetry/releases/investigation?project_id=${p}&release=shop@1.0.0&environment=production&service_name=checkout-api`,
    }),
  ],
];

/** Routes that find their project from an id in the path. */
const BY_ID: [string, (i: Ids) => string][] = [
  ['issue', (i) => `/api/telemetry/issues/${i.issue}`],
  ['issue events', (i) => `/api/telemetry/issues/${i.issue}/events`],
  ['issue activity', (i) => `/api/telemetry/issues/${i.issue}/activity`],
  ['issue owners', (i) => `/api/telemetry/issues/${i.issue}/owners`],
  ['issue investigation', (i) => `/api/telemetry/issues/${i.issue}/investigation`],
  [
    'correction verification',
    (i) =>
      `/api/telemetry/issues/${i.issue}/correction-verification?baseline_occurrence_id=${i.occurrence}&candidate_deployment_id=${i.deployment}`,
  ],
  ['log', (i) => `/api/logs/${i.log}`],
  ['log investigation', (i) => `/api/logs/${i.log}/investigation`],
  ['action investigation', (i) => `/api/telemetry/actions/${i.action}/investigation`],
  ['deployment', (i) => `/api/telemetry/deployments/${i.deployment}?project_id=${i.project}`],
];

const projectIdOf = (r: Row) => [String(r.project_id)];

/** List routes that read every readable project when none is given, and a row's projects. */
const UNSCOPED: [string, string, (r: Row) => string[]][] = [
  ['logs', '/api/logs', projectIdOf],
  ['issues', '/api/telemetry/issues?since=7d', projectIdOf],
  ['actions', '/api/telemetry/actions?since=7d', projectIdOf],
  ['metrics', '/api/telemetry/metrics?since=7d', projectIdOf],
  ['releases', '/api/telemetry/releases?since=7d', projectIdOf],
  // One trace id in both projects: a discovery row lists the projects it was seen in.
  ['traces', '/api/telemetry/traces?since=7d', (r) => r.project_ids as string[]],
  ['projects', '/api/projects', (r) => [String(r.id)]],
];

describe('a tool connection on the read routes (delegated credential)', () => {
  let svc: RunningService<false>;
  let owner = '';
  let tool = '';
  let inside: Ids;
  let outside: Ids;

  const send = (r: Req, token: string): Promise<ApiResponse> =>
    call(svc.baseUrl, r.method, r.path, { token, json: r.json });

  async function seedProject(projectId: string, key: string): Promise<Ids> {
    const events = [
      sdkEvent('issue', issueItem()),
      sdkEvent('log', logItem({ trace_id: TRACE })),
      sdkEvent('trace_span', spanItem({ span_id: '1'.repeat(16), status: 'error' })),
      sdkEvent('action', actionItem()),
      sdkEvent('action', actionItem({ name: 'checkout_done', occurred_at: at(60_000) })),
      sdkEvent('metric', metricItem()),
    ];
    const res = await ingest(svc, SDK, key, sdkBody(events));
    expect(res.status, res.text).toBeLessThan(300);
    const first = async (path: string) => {
      const r = await call(svc.baseUrl, 'GET', path, { token: owner });
      expect(r.status, r.text).toBe(200);
      const row = (r.body as Row[])[0];
      expect(row, path).toBeDefined();
      return row as Row;
    };
    const issue = String(
      (await first(`/api/telemetry/issues?project_id=${projectId}&since=7d`)).id,
    );
    const occurrence = String((await first(`/api/telemetry/issues/${issue}/events`)).id);
    const deployment = await putDeployment(svc, owner, projectId, {
      started_at: T0,
      finished_at: at(1000),
    });
    return {
      project: projectId,
      issue,
      occurrence,
      log: String((await first(`/api/logs?project_id=${projectId}`)).id),
      action: String((await first(`/api/telemetry/actions?project_id=${projectId}&since=7d`)).id),
      span: '1'.repeat(16),
      deployment,
    };
  }

  beforeAll(async () => {
    svc = await startService();
    const tenant = await createTenant(svc, { tier: 'pro' });
    owner = await issuePersonalToken(svc.deps, tenant.accountId);
    const second = newId();
    await svc.deps.store.projects.create({
      id: second,
      organizationId: tenant.organizationId,
      slug: 'second',
      name: 'Second',
      createdAt: svc.clock.now(),
    });
    inside = await seedProject(tenant.projectId, tenant.ingestKey);
    outside = await seedProject(second, await addIngestKey(svc, second));
    const created = await call(svc.baseUrl, 'POST', '/api/account/tool-connections', {
      token: owner,
      json: { name: 'CI release check', project_ids: [inside.project] },
    });
    expect(created.status, created.text).toBe(200);
    tool = (created.body as { token: string }).token;
  });
  afterAll(() => svc.close());

  describe.each(NAMED)('%s', (_name, request) => {
    it('reads a covered project exactly as the account does', async () => {
      const mine = await send(request(inside.project), owner);
      expect(mine.status, mine.text).toBe(200);
      const delegated = await send(request(inside.project), tool);
      expect(delegated.status, delegated.text).toBe(200);
      expect(delegated.body).toEqual(mine.body);
    });

    it('gives 403 forbidden for a project outside its scope', async () => {
      expect((await send(request(outside.project), owner)).status).toBe(200);
      expectError(await send(request(outside.project), tool), 403, 'forbidden', MANAGE);
    });
  });

  describe.each(BY_ID)('%s', (_name, path) => {
    it('reads a record of a covered project exactly as the account does', async () => {
      const mine = await send({ method: 'GET', path: path(inside) }, owner);
      const delegated = await send({ method: 'GET', path: path(inside) }, tool);
      expect(delegated.status, delegated.text).toBe(mine.status);
      // A bundle may gather related records from every readable project (the log's trace is in
      // both): the connection's leaves the other project out; otherwise the two are the same.
      if (JSON.stringify(mine.body).includes(outside.project))
        expect(JSON.stringify(delegated.body)).not.toContain(outside.project);
      else expect(delegated.body).toEqual(mine.body);
    });

    it('does not read a record of a project outside its scope', async () => {
      const mine = await send({ method: 'GET', path: path(outside) }, owner);
      expect(mine.status, mine.text).toBe(200);
      const delegated = await send({ method: 'GET', path: path(outside) }, tool);
      expectError(delegated, 403, 'forbidden', MANAGE);
      expect(JSON.stringify(delegated.body)).not.toContain(outside.project);
    });
  });

  describe.each(UNSCOPED)('%s with no project given', (_name, path, projectsOf) => {
    it('reads only the covered projects', async () => {
      const mine = await send({ method: 'GET', path }, owner);
      expect(mine.status, mine.text).toBe(200);
      expect((mine.body as Row[]).flatMap(projectsOf)).toContain(outside.project);
      const delegated = await send({ method: 'GET', path }, tool);
      expect(delegated.status, delegated.text).toBe(200);
      const projects = new Set((delegated.body as Row[]).flatMap(projectsOf));
      expect([...projects]).toEqual([inside.project]);
    });
  });

  it('gives 403 for a project_ids selection with one project outside its scope', async () => {
    const both = `${inside.project},${outside.project}`;
    expect(
      (await send({ method: 'GET', path: `/api/logs?project_ids=${both}` }, owner)).status,
    ).toBe(200);
    expectError(
      await send({ method: 'GET', path: `/api/logs?project_ids=${both}` }, tool),
      403,
      'forbidden',
      MANAGE,
    );
  });

  it('gives 403 even for a project the account cannot read (the same answer for every project outside)', async () => {
    const unknown = newId();
    expectError(
      await send({ method: 'GET', path: `/api/logs?project_id=${unknown}` }, tool),
      403,
      'forbidden',
    );
    // The account's own bearer keeps the spec's answer for an unreadable project: 200 [].
    const mine = await send({ method: 'GET', path: `/api/logs?project_id=${unknown}` }, owner);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([]);
  });

  it('refuses a write to a covered project with 403 forbidden and changes nothing', async () => {
    const path = `/api/telemetry/issues/${inside.issue}`;
    const before = await send({ method: 'GET', path }, owner);
    const res = await call(svc.baseUrl, 'PATCH', path, {
      token: tool,
      json: { status: 'resolved' },
    });
    expectError(res, 403, 'forbidden', { code: 'use_account_credential', target: 'auth' });
    expect((await send({ method: 'GET', path }, owner)).body).toEqual(before.body);
  });
});
