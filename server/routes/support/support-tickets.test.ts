import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  callOnOwnConnection,
  expectError,
  type CallOptions,
} from '../../test-support/api-client';
import {
  getAs,
  seedInvestigationWorld,
  type InvestigationWorld,
} from '../../test-support/investigation-world';
import { startService, type RunningService } from '../../test-support/start-service';
import { storeSql } from '../../test-support/store-sql';
import { listTickets } from '../../admin/list-tickets';
import { CONTEXT_BODY_MAX_BYTES, CONTEXTS_PER_TICKET } from './support-tickets';

type Ticket = {
  ticket_id: string;
  status: string;
  subject: string;
  project_id: string | null;
  severity: string;
  created_at: string;
  delivery: string;
};
type Context = {
  context_id: string;
  kind: string;
  subject: { kind: string; id: string } | null;
  path: string | null;
  bytes: number;
};

describe('support tickets', () => {
  let svc: RunningService<false>;
  let w: InvestigationWorld;
  const post = (path: string, opts: CallOptions) => call(svc.baseUrl, 'POST', path, opts);
  const open = (json: unknown, headers: Record<string, string> = {}, token = w.token) =>
    post('/api/support/tickets', { token, json, headers });
  const attach = (ticketId: string, json: unknown, key?: string, token = w.token) =>
    post(`/api/support/tickets/${ticketId}/context`, {
      token,
      json,
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
    });
  const stored = async <R>(sql: string, params: unknown[] = []) => {
    const db = storeSql(svc);
    try {
      return await db.rows<R>(sql, params);
    } finally {
      await db.close();
    }
  };
  const ticketCount = async () =>
    (await stored<{ n: number }>('SELECT COUNT(*) AS n FROM support_tickets'))[0]?.n;

  beforeAll(async () => {
    svc = await startService();
    w = await seedInvestigationWorld(svc);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  describe('POST /api/support/tickets', () => {
    it('stores a ticket for the operator and answers 200', async () => {
      const res = await open({
        subject: '  Checkout errors  ',
        message: 'Orders fail since 2.14.0',
        project_id: w.tenant.projectId,
        severity: 'high',
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        ticket_id: expect.any(String) as string,
        status: 'open',
        subject: 'Checkout errors',
        message: 'Orders fail since 2.14.0',
        project_id: w.tenant.projectId,
        severity: 'high',
        created_at: new Date(svc.clock.now()).toISOString(),
        delivery: 'stored_for_operator',
      });
      expect(((await open({ subject: 's', message: 'm' })).body as Ticket).severity).toBe('normal');
    });

    it.each([
      ['an unknown key', { subject: 's', message: 'm', email: 'x@y.z' }],
      ['a blank subject', { subject: '  ', message: 'm' }],
      ['a subject over 200 characters', { subject: 's'.repeat(201), message: 'm' }],
      ['a message over 10,000 characters', { subject: 's', message: 'm'.repeat(10_001) }],
      ['an unknown severity', { subject: 's', message: 'm', severity: 'critical' }],
      ['a project_id that is not a UUID', { subject: 's', message: 'm', project_id: 'x' }],
    ])('%s is 422', async (_name, json) => {
      expectError(await open(json), 422, 'validation_failed');
    });

    it('GET is 405 naming POST', async () => {
      const res = await call(svc.baseUrl, 'GET', '/api/support/tickets', { token: w.token });
      expectError(res, 405, 'method_not_allowed');
      expect((res.body as { next: string }).next).toContain('POST');
    });

    it('an unreadable project is 404; no bearer is 401', async () => {
      expectError(
        await open({ subject: 's', message: 'm', project_id: w.other.projectId }),
        404,
        'not_found',
      );
      expectError(
        await post('/api/support/tickets', { json: { subject: 's', message: 'm' } }),
        401,
        'unauthorized',
      );
    });

    it('Idempotency-Key: same body replays (200, one ticket), another body is 409', async () => {
      const before = (await ticketCount()) ?? 0;
      const headers = { 'Idempotency-Key': 'ticket-retry-1' };
      const first = await open({ subject: 'Retry me', message: 'm' }, headers);
      const again = await open({ subject: 'Retry me', message: 'm' }, headers);
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await ticketCount()).toBe(before + 1);
      expectError(
        await open({ subject: 'Other', message: 'm' }, headers),
        409,
        'idempotency_conflict',
      );
      expect(await ticketCount()).toBe(before + 1);
      // The key is the account's own: another account's same key is new work.
      const theirs = await open({ subject: 'Retry me', message: 'm' }, headers, w.otherToken);
      expect(theirs.status).toBe(200);
      expect((theirs.body as Ticket).ticket_id).not.toBe((first.body as Ticket).ticket_id);
      expectError(
        await open({ subject: 's', message: 'm' }, { 'Idempotency-Key': 'k'.repeat(129) }),
        422,
        'validation_failed',
      );
    });
  });

  it('the operator lists stored tickets with `npm run account -- tickets`', async () => {
    await open({ subject: 'For the operator', message: 'line one\nline two' });
    const text = await listTickets(svc.deps.store);
    expect(text).toContain('For the operator');
    expect(text).toContain('    line two');
    expect(text).toContain(w.tenant.email);
  });

  describe('POST /api/support/tickets/{ticket_id}/context', () => {
    let ticketId = '';
    beforeAll(async () => {
      ticketId = ((await open({ subject: 'With context', message: 'm' })).body as Ticket).ticket_id;
    });

    it('attaches a bundle exactly as an investigation read returned it', async () => {
      const bundle = await getAs(
        svc,
        w.token,
        `/api/telemetry/issues/${w.issueId}/investigation?selection=recommended`,
      );
      expect(bundle.status).toBe(200);
      const res = await attach(ticketId, { kind: 'investigation', bundle: bundle.body }, 'ctx-1');
      expect(res.status, res.text).toBe(200);
      const ctx = res.body as Context;
      expect(ctx).toMatchObject({
        kind: 'investigation',
        subject: { kind: 'issue', id: w.issueId },
        path: null,
      });
      const [row] = await stored<{ bundle: string }>(
        'SELECT bundle FROM support_ticket_contexts WHERE id = ?',
        [ctx.context_id],
      );
      expect(JSON.parse(row?.bundle ?? '')).toEqual(bundle.body);
      expect(ctx.bytes).toBe(Buffer.byteLength(row?.bundle ?? ''));
    });

    it('attaches a reference to an investigation read path', async () => {
      const p = `/api/telemetry/traces/${'b'.repeat(32)}/investigation`;
      const res = await attach(ticketId, { kind: 'reference', path: p }, 'ctx-ref');
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ kind: 'reference', path: p, subject: null });
    });

    it.each([
      ['a bundle without a subject', { kind: 'investigation', bundle: { schema_version: 1 } }],
      ['an unknown kind', { kind: 'note', text: 'x' }],
      ['a path that is not an investigation read', { kind: 'reference', path: '/api/logs' }],
      ['an extra key', { kind: 'reference', path: '/api/telemetry/metrics/investigation', x: 1 }],
    ])('%s is 422', async (_name, json) => {
      expectError(await attach(ticketId, json, `bad-${_name}`), 422, 'validation_failed');
    });

    it('a missing Idempotency-Key is 422', async () => {
      const res = await attach(ticketId, {
        kind: 'reference',
        path: '/api/telemetry/metrics/investigation',
      });
      expectError(res, 422, 'validation_failed');
      expect((res.body as { error: string }).error).toMatch(/idempotency-key/i);
    });

    it('same key and body replays; another body is 409', async () => {
      const json = { kind: 'reference', path: '/api/telemetry/releases/investigation?release=a' };
      const a = await attach(ticketId, json, 'ctx-replay');
      const b = await attach(ticketId, json, 'ctx-replay');
      expect(a.status).toBe(200);
      expect(b.body).toEqual(a.body);
      expectError(
        await attach(
          ticketId,
          { ...json, path: '/api/telemetry/metrics/investigation' },
          'ctx-replay',
        ),
        409,
        'idempotency_conflict',
      );
    });

    it(`a body over ${CONTEXT_BODY_MAX_BYTES / 1024} KiB is 413`, async () => {
      const raw = JSON.stringify({
        kind: 'investigation',
        bundle: {
          schema_version: 1,
          subject: { kind: 'issue', id: 'x' },
          pad: 'p'.repeat(CONTEXT_BODY_MAX_BYTES),
        },
      });
      const res = await callOnOwnConnection(
        svc.baseUrl,
        'POST',
        `/api/support/tickets/${ticketId}/context`,
        {
          token: w.token,
          raw,
        },
      );
      expectError(res, 413, 'invalid_json');
    });

    it('another account’s ticket and an unknown ticket are 404 alike', async () => {
      const json = { kind: 'reference', path: '/api/telemetry/metrics/investigation' };
      const theirs = await attach(ticketId, json, 'ctx-foreign', w.otherToken);
      const unknown = await attach('00000000-0000-4000-8000-000000000000', json, 'ctx-unknown');
      expectError(theirs, 404, 'not_found');
      expect(theirs.body).toEqual(unknown.body);
      expectError(await attach('nope', json, 'ctx-x'), 400, 'invalid_path');
    });

    it(`a ticket holds at most ${CONTEXTS_PER_TICKET} attachments`, async () => {
      const t = ((await open({ subject: 'Full', message: 'm' })).body as Ticket).ticket_id;
      const json = { kind: 'reference', path: '/api/telemetry/metrics/investigation' };
      for (let i = 0; i < CONTEXTS_PER_TICKET; i++)
        expect((await attach(t, json, `fill-${i}`)).status).toBe(200);
      expectError(await attach(t, json, 'one-too-many'), 422, 'validation_failed');
    });

    it('attachments sent at once to a ticket with one place left take only that place', async () => {
      const t = ((await open({ subject: 'Nearly full', message: 'm' })).body as Ticket).ticket_id;
      const json = { kind: 'reference', path: '/api/telemetry/metrics/investigation' };
      for (let i = 0; i < CONTEXTS_PER_TICKET - 1; i++)
        expect((await attach(t, json, `near-${i}`)).status).toBe(200);
      const racing = await Promise.all([0, 1, 2, 3].map((i) => attach(t, json, `race-${i}`)));
      expect(racing.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
      const [held] = await stored<{ n: number }>(
        'SELECT COUNT(*) AS n FROM support_ticket_contexts WHERE ticket_id = ?',
        [t],
      );
      expect(held?.n).toBe(CONTEXTS_PER_TICKET);
    });
  });
});
