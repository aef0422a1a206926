import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../core/config';
import type { Store } from '../core/store/store';
import { createService } from '../service';
import {
  dropTestTelemetry,
  testTelemetry,
  testsOnClickHouse,
} from '../test-support/test-clickhouse';
import { tableCounts } from '../test-support/telemetry';

/** The whole path: demo accounts, then the world through the real ingest routes into the store. */
// The default deployment's seed (the PostgreSQL suite seeds through its own services).
describe.skipIf(!testsOnClickHouse())('seeding the demo world into an empty data directory', () => {
  let dir = '';
  let db: Database.Database;
  let closeStore = async () => {};
  let stored: { dir: string; deps: { store: Store } };
  let request: (path: string, token: string) => Promise<Response> = async () => new Response();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-demo-'));
    const telemetry = testTelemetry() ?? { engine: 'state' as const };
    const service = await createService(
      testConfig(dir, { demo: true, demoScale: 0.05, telemetry }),
    );
    stored = { dir, deps: { store: service.store } };
    closeStore = async () => {
      await service.store.close();
      await dropTestTelemetry(telemetry);
    };
    request = async (path, token) =>
      service.app.request(path, { headers: { Authorization: `Bearer ${token}` } });
    db = new Database(path.join(dir, 'lookout.sqlite'), { readonly: true });
  }, 60_000);
  afterAll(async () => {
    db.close();
    await closeStore();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores rows of every kind', async () => {
    const counts = await tableCounts(stored);
    for (const table of [
      'logs',
      'issues',
      'issue_occurrences',
      'spans',
      'actions',
      'metric_samples',
    ]) {
      expect(counts[table], table).toBeGreaterThan(0);
    }
    expect(counts.issues).toBeGreaterThanOrEqual(25);
  });

  it('fills all three projects', async () => {
    const projects = db.prepare('SELECT id, name FROM projects ORDER BY name').all() as {
      id: string;
      name: string;
    }[];
    expect(projects.map((r) => r.name)).toEqual(['Checkout API', 'Mobile App', 'Storefront Web']);
    for (const p of projects) {
      const counts = await tableCounts(stored, p.id);
      expect(counts.logs, p.name).toBeGreaterThan(0);
      expect(counts.spans, p.name).toBeGreaterThan(0);
    }
  });

  it('puts the demo owner on the pro plan', () => {
    const owner = db
      .prepare('SELECT plan_tier, plan_status FROM accounts WHERE email = ?')
      .get('demo@lookout.dev');
    expect(owner).toEqual({ plan_tier: 'pro', plan_status: 'active' });
  });

  it('keeps demo-credentials.json in its documented shape', () => {
    const creds = JSON.parse(
      fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(Object.keys(creds).sort()).toEqual(['account_token', 'email', 'password', 'projects']);
    expect(creds.projects).toEqual([
      {
        id: expect.any(String),
        name: 'Storefront Web',
        ingest_key: expect.stringMatching(/^lk_ik_/),
      },
      {
        id: expect.any(String),
        name: 'Checkout API',
        ingest_key: expect.stringMatching(/^lk_ik_/),
      },
      { id: expect.any(String), name: 'Mobile App', ingest_key: expect.stringMatching(/^lk_ik_/) },
    ]);
  });

  it('gives some issues a triage history through the issue routes', () => {
    const by = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(by("SELECT count(*) AS n FROM issues WHERE status = 'resolved'")).toBeGreaterThanOrEqual(
      3,
    );
    expect(by("SELECT count(*) AS n FROM issues WHERE status = 'archived'")).toBe(2);
    expect(by('SELECT count(*) AS n FROM issues WHERE assignee_account_id IS NOT NULL')).toBe(3);
    expect(by('SELECT count(*) AS n FROM issues WHERE assignee_team_id IS NOT NULL')).toBe(4);
    expect(by('SELECT count(*) AS n FROM issues WHERE priority IS NOT NULL')).toBe(1);
    // Every change was made by a demo account, and recorded.
    expect(by('SELECT count(DISTINCT actor_id) AS n FROM issue_activity')).toBe(2);
    expect(by('SELECT count(*) AS n FROM issue_activity WHERE actor_id IS NULL')).toBe(0);
  });

  it('leaves the demo owner notifications from the demo admin', async () => {
    const creds = JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8')) as {
      account_token: string;
    };
    const res = await request('/api/telemetry/issues/notifications', creds.account_token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { unread: number; notifications: { team: unknown }[] };
    // One assignment to the owner, and two to the Checkout team the owner is in.
    expect(body.unread).toBe(3);
    expect(body.notifications.filter((n) => n.team !== null)).toHaveLength(2);
  });

  it('gives Checkout API ownership rules and CODEOWNERS that name the checkout owners', async () => {
    const creds = JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8')) as {
      account_token: string;
      projects: { id: string; name: string }[];
    };
    const project = creds.projects.find((p) => p.name === 'Checkout API');
    const ownership = await request(
      `/api/telemetry/issues/ownership?project_id=${project?.id}`,
      creds.account_token,
    );
    expect(ownership.status).toBe(200);
    expect(await ownership.json()).toMatchObject({
      rules: expect.stringContaining('path:src/checkout/* #checkout'),
      codeowners: expect.stringContaining('@platform'),
      unresolved_owners: [{ source: 'codeowners', line: 7, owner: '@tech-writers' }],
    });
    const issue = db
      .prepare(
        `SELECT i.id FROM issues i JOIN issue_occurrences o ON o.seq = i.latest_occurrence_seq
         WHERE i.project_id = ? AND o.stack_trace LIKE '%src/checkout/service.ts%' LIMIT 1`,
      )
      .get(project?.id) as { id: string };
    const owners = await request(
      `/api/telemetry/issues/${issue.id}/owners?response_version=2`,
      creds.account_token,
    );
    const body = (await owners.json()) as {
      suggested_assignee: { slug?: string };
      owners: { source: string; line: number | null }[];
    };
    expect(body.suggested_assignee.slug).toBe('checkout');
    expect(body.owners[0]).toMatchObject({ source: 'ownership_rule', line: 5 });
  });

  it('records the deployment timeline through the deployment route, failures included', async () => {
    const creds = JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8')) as {
      account_token: string;
      projects: { id: string; name: string }[];
    };
    const deployments = db.prepare('SELECT count(*) AS n FROM deployments').get() as { n: number };
    expect(deployments.n).toBeGreaterThan(10);
    const project = creds.projects.find((p) => p.name === 'Checkout API');
    const res = await request(
      `/api/telemetry/deployments?project_id=${project?.id}&status=failed`,
      creds.account_token,
    );
    expect(res.status).toBe(200);
    const page = (await res.json()) as { deployments: { service_name: string }[] };
    expect(page.deployments.map((d) => d.service_name)).toContain('pricing');
  });

  it('rolls releases up per project, release, environment and service', async () => {
    const creds = JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8')) as {
      account_token: string;
    };
    const res = await request('/api/telemetry/releases?limit=1000', creds.account_token);
    expect(res.status).toBe(200);
    const rows = (await res.json()) as { release: string; trace_span_count: number }[];
    expect(rows.map((r) => r.release)).toContain('checkout-api@2.14.0');
    const spans = rows.reduce((n, r) => n + r.trace_span_count, 0);
    expect(spans).toBe((await tableCounts(stored)).spans);
  });
});
