import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseServer } from '../../../test-support/test-database';
import type { TestDatabase } from '../../../test-support/test-database';
import { ReplayTakenError } from '../../../core/store/state/replay-taken';
import { SlugTakenError } from '../../../core/store/state/slug-taken';
import type { IdempotencyReceipt } from '../../../core/store/state/idempotency';
import type { Store } from '../../../core/store/store';
import { openPostgresStore } from '../../postgres-store';

/**
 * Two service instances (two stores, each with its own pool) on one database write the same
 * things at once: every limit, slug and Idempotency-Key holds as it does on one SQLite file.
 * Runs only with LOOKOUT_TEST_DATABASE_URL set.
 */
describe.skipIf(testDatabaseServer() === null)('concurrent creates on two instances', () => {
  let database: TestDatabase;
  let a: Store;
  let b: Store;
  const owner = 'acc-owner';
  const org = 'org-1';
  const project = 'prj-1';

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await openPostgresStore(database.url ?? '');
    b = await openPostgresStore(database.url ?? '');
    await a.accounts.create({
      id: owner,
      email: 'owner@example.test',
      name: null,
      passwordHash: 'x',
      createdAt: 0,
      revokedBefore: null,
    });
    await a.accounts.createOrganization({ id: org, slug: 'org-1', name: 'Org', createdAt: 0 });
    await a.accounts.addMember({ organizationId: org, accountId: owner, role: 'owner' });
    // Warm both pools, so the sends below overlap instead of queueing behind new connections.
    await Promise.all([a, b].flatMap((s) => Array.from({ length: 8 }, () => s.accounts.count())));
    await a.projects.create({
      id: project,
      organizationId: org,
      slug: 'p',
      name: 'P',
      createdAt: 0,
    });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });

  const both = <T>(n: number, run: (store: Store, i: number) => Promise<T>) =>
    Promise.allSettled(Array.from({ length: n }, (_, i) => run(i % 2 === 0 ? a : b, i)));

  it('organizations created at once stop at the owner’s limit', async () => {
    const results = await both(12, (s, i) =>
      s.accounts.createOwnedOrganization(
        { id: `owned-${i}`, slug: `owned-${i}`, name: `Owned ${i}`, createdAt: 1 },
        owner,
        3,
      ),
    );
    const created = results.filter((r) => r.status === 'fulfilled' && r.value === true);
    // The account already owns org-1, so two more fit.
    expect(created).toHaveLength(2);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await a.usage.ownedOrganizationCount(owner)).toBe(3);
  });

  it('one slug created at once: one project, the others are told the slug was taken', async () => {
    const results = await both(4, (s, i) =>
      s.projects.create({
        id: `twin-${i}`,
        organizationId: org,
        slug: 'twin',
        name: 'Twin',
        createdAt: 1,
      }),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(SlugTakenError);
    expect((await a.projects.readableBy(owner)).filter((p) => p.name === 'Twin')).toHaveLength(1);
  });

  it('one Idempotency-Key at once: one create and its record, the others roll back', async () => {
    const receipt = (i: number): IdempotencyReceipt => ({
      scope: `${owner}:POST /api/projects`,
      key: 'same-key',
      record: { requestHash: 'h', status: 200, response: JSON.stringify({ id: `keyed-${i}` }) },
      at: 1,
    });
    const results = await both(4, (s, i) =>
      s.projects.create(
        { id: `keyed-${i}`, organizationId: org, slug: `keyed-${i}`, name: 'Keyed', createdAt: 1 },
        receipt(i),
      ),
    );
    const won = results.findIndex((r) => r.status === 'fulfilled');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ReplayTakenError);
    const stored = await b.idempotency.get(`${owner}:POST /api/projects`, 'same-key', 0);
    expect(stored?.response).toBe(JSON.stringify({ id: `keyed-${won}` }));
    const keyed = (await a.projects.readableBy(owner)).filter((p) => p.name === 'Keyed');
    expect(keyed.map((p) => p.id)).toEqual([`keyed-${won}`]);
  });

  it('attachments sent at once stop at the ticket’s limit', async () => {
    await a.support.createTicket({
      id: 'ticket-1',
      accountId: owner,
      projectId: null,
      subject: 's',
      message: 'm',
      severity: 'normal',
      status: 'open',
      createdAt: 1,
    });
    const results = await both(10, (s, i) =>
      s.support.addContext(
        {
          id: `ctx-${i}`,
          ticketId: 'ticket-1',
          kind: 'reference',
          bundle: null,
          path: '/x',
          bytes: 2,
          createdAt: 1,
        },
        4,
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled' && r.value === true)).toHaveLength(4);
    expect(await b.support.contextCount('ticket-1')).toBe(4);
  });

  it('one deployment id sent at once is created once; every send reads what is stored', async () => {
    const results = await both(6, (s, i) =>
      s.deployments.put(
        {
          projectId: project,
          deploymentId: 'deploy-1',
          release: `r-${i}`,
          environment: 'production',
          serviceName: 'svc',
          status: 'succeeded',
          startedAt: 1,
          finishedAt: 2,
          commitSha: null,
          createdAt: 3,
        },
        owner,
      ),
    );
    const values = results.map((r) => (r.status === 'fulfilled' ? r.value : null));
    expect(values.filter((v) => v?.created)).toHaveLength(1);
    const release = values.find((v) => v?.created)?.stored.release;
    expect(values.every((v) => v?.stored.release === release)).toBe(true);
  });

  it('ownership changes at once keep each other’s text', async () => {
    await Promise.all([
      a.ownership.set({ projectId: project, rules: 'path:src/** #web', at: 10, by: owner }),
      b.ownership.set({ projectId: project, codeowners: '* @web', at: 11, by: owner }),
    ]);
    expect(await a.ownership.get(project)).toMatchObject({
      rules: 'path:src/** #web',
      codeowners: '* @web',
    });
  });
});
