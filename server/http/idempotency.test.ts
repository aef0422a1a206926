import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../test-support/api-client';
import { startService, type RunningService } from '../test-support/start-service';
import { storeSql } from '../test-support/store-sql';
import { createTenant } from '../test-support/telemetry';

/**
 * An `Idempotency-Key` create and the record of its result are one write: if remembering the
 * result fails (a full disk here; a crash between the two writes alike), nothing was created,
 * so re-sending the same key and body creates once, never twice (spec, write rules).
 */

describe('idempotent creates are atomic', () => {
  let svc: RunningService<true>;
  let token: string;
  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
  });
  afterAll(async () => {
    await svc.close();
  });

  /** Makes every write of a replay record fail until the returned function is called. */
  async function failReceipts(): Promise<() => Promise<void>> {
    const db = storeSql(svc);
    if (db.dialect === 'sqlite') {
      await db.exec(`CREATE TRIGGER fail_receipts BEFORE INSERT ON idempotency_keys
        BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    } else {
      await db.exec(`CREATE FUNCTION fail_receipts() RETURNS trigger LANGUAGE plpgsql
          AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
        CREATE TRIGGER fail_receipts BEFORE INSERT ON idempotency_keys
          FOR EACH ROW EXECUTE FUNCTION fail_receipts();`);
    }
    return async () => {
      await db.exec(
        db.dialect === 'sqlite'
          ? 'DROP TRIGGER fail_receipts'
          : 'DROP TRIGGER fail_receipts ON idempotency_keys; DROP FUNCTION fail_receipts();',
      );
      await db.close();
    };
  }

  /** The one number a `SELECT COUNT(*) AS n …` query returns. */
  const count = async (sql: string, arg: string) => {
    const db = storeSql(svc);
    try {
      return (await db.rows<{ n: number }>(sql, [arg]))[0]?.n;
    } finally {
      await db.close();
    }
  };

  const projectsNamed = async (name: string) => {
    const res = await call(svc.baseUrl, 'GET', '/api/projects', { token });
    return (res.body as { id: string; name: string }[]).filter((p) => p.name === name);
  };

  it('POST /api/projects: a create whose result was not remembered did not happen', async () => {
    const send = () =>
      call(svc.baseUrl, 'POST', '/api/projects', {
        token,
        json: { name: 'Atomic project' },
        headers: { 'Idempotency-Key': 'atomic-project-1' },
      });
    const restore = await failReceipts();
    try {
      expect((await send()).status).toBe(500);
      expect((await send()).status).toBe(500);
    } finally {
      await restore();
    }
    expect(await projectsNamed('Atomic project')).toEqual([]);
    const created = await send();
    expect(created.status).toBe(200);
    expect(await send()).toMatchObject({ status: 200, body: created.body });
    expect(await projectsNamed('Atomic project')).toHaveLength(1);
  });

  it('a create racing one with the same key on another instance replays its result', async () => {
    const send = (name: string) =>
      call(svc.baseUrl, 'POST', '/api/projects', {
        token,
        json: { name },
        headers: { 'Idempotency-Key': 'raced-project-1' },
      });
    const first = await send('Raced project');
    expect(first.status).toBe(200);
    // The next sends look before that record is visible, as another instance does while the
    // first create is still committing; their own record write then finds it.
    const idempotency = svc.deps.store.idempotency;
    const get = idempotency.get;
    let blind = 0;
    idempotency.get = async (...args) => (blind++ % 2 === 0 ? null : get.apply(idempotency, args));
    try {
      expect(await send('Raced project')).toMatchObject({ status: 200, body: first.body });
      expect((await send('Another raced project')).status).toBe(409);
    } finally {
      idempotency.get = get;
    }
    expect(blind).toBe(4);
    expect(await projectsNamed('Raced project')).toHaveLength(1);
    expect(await projectsNamed('Another raced project')).toEqual([]);
  });

  it('POST /api/projects/{id}/ingest-keys: likewise, one key per Idempotency-Key', async () => {
    const project = svc.creds.projects[0];
    if (!project) throw new Error('no demo project');
    const send = () =>
      call(svc.baseUrl, 'POST', `/api/projects/${project.id}/ingest-keys`, {
        token,
        json: { name: 'atomic key' },
        headers: { 'Idempotency-Key': 'atomic-key-1' },
      });
    const restore = await failReceipts();
    try {
      expect((await send()).status).toBe(500);
    } finally {
      await restore();
    }
    const created = await send();
    expect(created.status).toBe(200);
    expect(await send()).toMatchObject({ status: 200, body: created.body });
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM ingest_keys WHERE project_id = ? AND name = 'atomic key'",
        project.id,
      ),
    ).toBe(1);
  });

  it('POST /api/organizations: likewise, one organization per Idempotency-Key', async () => {
    const tenant = await createTenant(svc, { tier: 'pro', password: 'pw-for-idempotency' });
    const { accessToken } = await signIn(svc.baseUrl, tenant.email, tenant.password);
    const send = () =>
      call(svc.baseUrl, 'POST', '/api/organizations', {
        token: accessToken,
        json: { name: 'Atomic organization' },
        headers: { 'Idempotency-Key': 'atomic-org-1' },
      });
    const restore = await failReceipts();
    try {
      expect((await send()).status).toBe(500);
    } finally {
      await restore();
    }
    const created = await send();
    expect(created.status).toBe(200);
    expect(await send()).toMatchObject({ status: 200, body: created.body });
    const account = await call(svc.baseUrl, 'GET', '/api/account', { token: accessToken });
    const orgs = (account.body as { organizations: { name: string }[] }).organizations;
    expect(orgs.filter((o) => o.name === 'Atomic organization')).toHaveLength(1);
  });

  it('POST /api/support/tickets and its context: likewise, one record per key', async () => {
    const ticket = () =>
      call(svc.baseUrl, 'POST', '/api/support/tickets', {
        token,
        json: { subject: 'Atomic ticket', message: 'It broke.' },
        headers: { 'Idempotency-Key': 'atomic-ticket-1' },
      });
    let restore = await failReceipts();
    try {
      expect((await ticket()).status).toBe(500);
    } finally {
      await restore();
    }
    const created = await ticket();
    expect(created.status).toBe(200);
    expect(await ticket()).toMatchObject({ status: 200, body: created.body });
    const ticketId = (created.body as { ticket_id: string }).ticket_id;
    const context = () =>
      call(svc.baseUrl, 'POST', `/api/support/tickets/${ticketId}/context`, {
        token,
        json: { kind: 'reference', path: `/api/telemetry/traces/${'c'.repeat(32)}/investigation` },
        headers: { 'Idempotency-Key': 'atomic-context-1' },
      });
    restore = await failReceipts();
    try {
      expect((await context()).status).toBe(500);
    } finally {
      await restore();
    }
    const attached = await context();
    expect(attached.status).toBe(200);
    expect(await context()).toMatchObject({ status: 200, body: attached.body });
    expect(
      await count('SELECT COUNT(*) AS n FROM support_tickets WHERE subject = ?', 'Atomic ticket'),
    ).toBe(1);
    expect(
      await count(
        'SELECT COUNT(*) AS n FROM support_ticket_contexts WHERE ticket_id = ?',
        ticketId,
      ),
    ).toBe(1);
  });
});
