import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../../test-support/service-process';
import { NATIVE, issueItem, nativeBody, storedRow, storedRows } from '../../test-support/telemetry';

/**
 * A crash in the middle of account writes: bulk issue changes, single issue changes,
 * deployments and project creates stream into the real service in its own process, which
 * is killed with SIGKILL while requests of every kind are in flight. After the restart each
 * change is applied whole or not at all (no half-applied bulk), no activity entry is written
 * twice, and re-sending what had no answer converges as the spec's write rules say: a bulk
 * re-apply is `unchanged`, a deployment retry returns the stored one, a project create with
 * the same `Idempotency-Key` returns the stored result.
 */

const GROUP_SIZE = 100;
const PATCHED = 20;
const ACKS_BEFORE_KILL = 40;

type Triage = { status: string; priority: string | null };
const INITIAL: Triage = { status: 'unresolved', priority: null };
/** Each state differs from the one before in both fields: every applied change writes 2 entries. */
const STATES: Triage[] = [
  { status: 'resolved', priority: 'high' },
  { status: 'archived', priority: 'low' },
  { status: 'unresolved', priority: 'medium' },
];
const stateAfter = (applied: number): Triage =>
  applied === 0 ? INITIAL : (STATES[(applied - 1) % STATES.length] ?? INITIAL);
const target = (op: number): Triage => STATES[op % STATES.length] ?? INITIAL;

type Answer = { status: number; body: unknown };

/** A sender's history: `acked` requests answered in order, then perhaps one without answer. */
type Progress = { acked: number; inFlight: number | null; answers: Answer[] };

async function request(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer | null> {
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: JSON.parse(await res.text()) as unknown };
  } catch {
    // The connection died with the service: the outcome is unknown.
    return null;
  }
}

/** Status and priority of each issue, read from the store (SQLite or PostgreSQL). */
async function triageOf(svc: ServiceProcess, ids: string[]): Promise<Triage[]> {
  const rows = await storedRows<Triage & { id: string }>(
    svc,
    'SELECT id, status, priority FROM issues WHERE id IN (' + ids.map(() => '?').join(', ') + ')',
    ids,
  );
  const byId = new Map(rows.map((r) => [r.id, { status: r.status, priority: r.priority }]));
  return ids.map((id) => byId.get(id) ?? INITIAL);
}

/** Status and priority entries of each issue's activity. */
async function activityCounts(svc: ServiceProcess, ids: string[]): Promise<number[]> {
  const rows = await storedRows<{ issue_id: string; n: number }>(
    svc,
    `SELECT issue_id, COUNT(*) AS n FROM issue_activity
     WHERE issue_id IN (${ids.map(() => '?').join(', ')}) AND type IN ('status', 'priority')
     GROUP BY issue_id`,
    ids,
  );
  const byId = new Map(rows.map((r) => [r.issue_id, Number(r.n)]));
  return ids.map((id) => byId.get(id) ?? 0);
}

describe('a crash during account writes', () => {
  let svc: ServiceProcess;
  beforeAll(async () => {
    svc = await startServiceProcess();
  }, 120_000);
  afterAll(async () => {
    await svc.dispose();
  });

  it('applies each change whole or not at all, and retries converge', async () => {
    const creds = svc.credentials();
    const project = creds.projects[0];
    if (!project) throw new Error('no demo project');
    const token = creds.account_token;
    const call = (method: string, path: string, body: unknown, headers?: Record<string, string>) =>
      request(svc.baseUrl, token, method, path, body, headers);

    // Issues of their own fingerprints: two bulk groups of 100 and 20 changed one by one.
    const now = new Date().toISOString();
    const count = 2 * GROUP_SIZE + PATCHED;
    const ingested = await request(
      svc.baseUrl,
      project.ingest_key,
      'POST',
      NATIVE,
      nativeBody({
        issues: Array.from({ length: count }, (_, i) =>
          issueItem({ occurred_at: now, fingerprint: `crash-${i}`, message: `crash ${i}` }),
        ),
      }),
    );
    expect(ingested?.status).toBe(200);
    const issueIds = (
      await storedRows<{ id: string }>(
        svc,
        'SELECT id FROM issues WHERE project_id = ? ORDER BY fingerprint',
        [project.id],
      )
    ).map((r) => r.id);
    expect(issueIds).toHaveLength(count);
    const groups = [issueIds.slice(0, GROUP_SIZE), issueIds.slice(GROUP_SIZE, 2 * GROUP_SIZE)];
    const patched = issueIds.slice(2 * GROUP_SIZE);

    const bulkBody = (group: string[], op: number) => ({
      project_id: project.id,
      issue_ids: group,
      ...target(op),
    });
    const patchOf = (op: number) => ({
      id: patched[op % PATCHED] ?? '',
      body: target(Math.floor(op / PATCHED)),
    });
    const deploymentBody = (op: number) => ({
      project_id: project.id,
      release: `checkout@3.${op}.0`,
      environment: 'production',
      service_name: 'checkout-api',
      status: op % 5 === 4 ? 'failed' : 'succeeded',
      started_at: new Date(Date.parse(now) + op * 60_000).toISOString(),
      finished_at: new Date(Date.parse(now) + op * 60_000 + 30_000).toISOString(),
      commit_sha: op.toString(16).padStart(40, '0'),
    });
    const projectBody = (op: number) => ({ name: `Crash project ${op}` });
    const projectKey = (op: number) => `crash-project-${op}`;

    // Five senders, each sending its changes one after the other, as a client would. Once
    // enough are answered, three of them ("losing" senders) send nothing more and take the
    // answer to their last request as lost (a client timeout); the kill waits until those
    // requests are committed, so "applied, but no answer" is always taken, while the other
    // two keep sending and have requests in flight when the SIGKILL lands.
    let acks = 0;
    let killing = false;
    let killed: Promise<void> | null = null;
    let startKilling: () => void = () => undefined;
    const enoughAnswers = new Promise<void>((resolve) => (startKilling = resolve));
    const stream = async (
      send: (op: number) => Promise<Answer | null>,
      ok: (a: Answer) => boolean,
      losing: boolean,
    ): Promise<Progress> => {
      const progress: Progress = { acked: 0, inFlight: null, answers: [] };
      for (let op = 0; op < 1000 && killed === null && !(losing && killing); op++) {
        progress.inFlight = op;
        const answer = await send(op);
        if (answer === null || (losing && killing)) return progress;
        if (!ok(answer))
          throw new Error(`op ${op}: ${answer.status} ${JSON.stringify(answer.body)}`);
        progress.acked++;
        progress.inFlight = null;
        progress.answers.push(answer);
        if (++acks === ACKS_BEFORE_KILL) {
          killing = true;
          startKilling();
        }
      }
      return progress;
    };
    const senders = [
      ...groups.map((group, g) =>
        stream(
          (op) => call('POST', '/api/telemetry/issues/bulk', bulkBody(group, op)),
          (a) => a.status === 200,
          g === 0,
        ),
      ),
      stream(
        (op) => {
          const p = patchOf(op);
          return call('PATCH', `/api/telemetry/issues/${p.id}?response_version=4`, p.body);
        },
        (a) => a.status === 200,
        false,
      ),
      stream(
        (op) => call('PUT', `/api/telemetry/deployments/crash-${op}`, deploymentBody(op)),
        (a) => a.status === 200,
        true,
      ),
      stream(
        (op) =>
          call('POST', '/api/projects', projectBody(op), { 'Idempotency-Key': projectKey(op) }),
        (a) => a.status === 200,
        true,
      ),
    ];
    const progressOf = new Map<number, Progress>();
    senders.forEach((s, i) => void s.then((p) => progressOf.set(i, p)));
    await enoughAnswers;
    // Whether a losing sender's last request is committed (or it had none).
    const committed = async () => {
      const bulkOp = progressOf.get(0)?.inFlight;
      const depOp = progressOf.get(3)?.inFlight;
      const projectOp = progressOf.get(4)?.inFlight;
      if ([bulkOp, depOp, projectOp].includes(undefined)) return false;
      const first = groups[0]?.[0] ?? '';
      const bulkDone =
        bulkOp === null ||
        JSON.stringify((await triageOf(svc, [first]))[0]) === JSON.stringify(target(bulkOp ?? 0));
      const depDone =
        depOp === null ||
        (await storedRow(
          svc,
          'SELECT 1 AS one FROM deployments WHERE project_id = ? AND deployment_id = ?',
          [project.id, `crash-${depOp}`],
        )) !== undefined;
      const projectDone =
        projectOp === null ||
        (await storedRow(svc, 'SELECT 1 AS one FROM projects WHERE name = ?', [
          projectBody(projectOp ?? 0).name,
        ])) !== undefined;
      return bulkDone && depDone && projectDone;
    };
    while (!(await committed())) await new Promise((r) => setImmediate(r));
    killed = svc.kill();
    const [bulkA, bulkB, patches, deployments, projects] = await Promise.all(senders);
    await killed;
    if (!bulkA || !bulkB || !patches || !deployments || !projects) throw new Error('no sender');
    const bulks = [bulkA, bulkB];
    // The kill came mid-stream: at least one write of some kind had no answer.
    expect([...bulks, patches, deployments, projects].some((p) => p.inFlight !== null)).toBe(true);

    // What the kill left, read from the store while the service is down.
    const afterKill = {
      groups: await Promise.all(
        groups.map(async (g) => ({
          triage: await triageOf(svc, g),
          activity: await activityCounts(svc, g),
        })),
      ),
      patched: {
        triage: await triageOf(svc, patched),
        activity: await activityCounts(svc, patched),
      },
      deployments: (
        await storedRows<{ deployment_id: string }>(
          svc,
          'SELECT deployment_id FROM deployments WHERE project_id = ?',
          [project.id],
        )
      ).map((r) => r.deployment_id),
      projects: await storedRows<{ id: string; name: string }>(
        svc,
        "SELECT id, name FROM projects WHERE name LIKE 'Crash project %'",
      ),
    };

    // A bulk change is whole or absent: one state for the group, the last answered one or the
    // one in flight, with 2 activity entries per applied change.
    const bulkApplied = bulks.map((progress, g) => {
      const left = afterKill.groups[g];
      if (!left) throw new Error('no group');
      const first = left.triage[0];
      expect(
        left.triage.every((t) => t.status === first?.status && t.priority === first.priority),
      ).toBe(true);
      const candidates =
        progress.inFlight === null ? [progress.acked] : [progress.acked, progress.acked + 1];
      const applied = candidates.find(
        (n) => JSON.stringify(stateAfter(n)) === JSON.stringify(first),
      );
      expect(applied, `group ${g}: ${JSON.stringify(first)}`).toBeDefined();
      expect(left.activity).toEqual(left.activity.map(() => 2 * (applied ?? 0)));
      return applied ?? 0;
    });

    // Single changes: each issue shows its answered changes, and the one in flight or not.
    const patchesOf = (i: number, ops: number) =>
      Math.floor(ops / PATCHED) + (i < ops % PATCHED ? 1 : 0);
    const inFlightPatch = patches.inFlight === null ? null : patches.inFlight % PATCHED;
    const patchApplied = patched.map((_, i) => {
      const triage = afterKill.patched.triage[i];
      const answered = patchesOf(i, patches.acked);
      const applied =
        i === inFlightPatch && JSON.stringify(triage) === JSON.stringify(stateAfter(answered + 1))
          ? answered + 1
          : answered;
      expect(triage, `issue ${i}`).toEqual(stateAfter(applied));
      expect(afterKill.patched.activity[i], `issue ${i}`).toBe(2 * applied);
      return applied;
    });

    // Deployments and projects answered are stored once; the one in flight at most once.
    const sent = (p: Progress) => p.acked + (p.inFlight === null ? 0 : 1);
    for (let op = 0; op < deployments.acked; op++)
      expect(afterKill.deployments).toContain(`crash-${op}`);
    expect(afterKill.deployments.length).toBeGreaterThanOrEqual(deployments.acked);
    expect(afterKill.deployments.length).toBeLessThanOrEqual(sent(deployments));
    const projectNames = afterKill.projects.map((p) => p.name);
    expect(new Set(projectNames).size).toBe(projectNames.length);
    for (let op = 0; op < projects.acked; op++)
      expect(projectNames).toContain(projectBody(op).name);
    expect(afterKill.projects.length).toBeLessThanOrEqual(sent(projects));

    // The losing senders' last requests were applied without an answer reaching the client.
    expect(bulkApplied[0]).toBe(bulkA.acked + (bulkA.inFlight === null ? 0 : 1));
    if (deployments.inFlight !== null)
      expect(afterKill.deployments).toContain(`crash-${deployments.inFlight}`);

    await svc.start();

    // Bulk: re-sending the last change is `unchanged` when it was applied, `updated` when not,
    // for every id alike; once more, it is `unchanged` everywhere.
    for (const [g, progress] of bulks.entries()) {
      const group = groups[g] ?? [];
      const op = progress.inFlight ?? progress.acked - 1;
      if (op < 0) continue;
      const wasApplied = (bulkApplied[g] ?? 0) > op;
      for (const expected of [wasApplied ? 'unchanged' : 'updated', 'unchanged']) {
        const res = await call('POST', '/api/telemetry/issues/bulk', bulkBody(group, op));
        expect(res?.status).toBe(200);
        const outcomes = (res?.body as { results: { outcome: string }[] }).results.map(
          (r) => r.outcome,
        );
        expect(outcomes).toEqual(group.map(() => expected));
      }
    }
    // Single change: the client reads the issue and re-sends only what is absent.
    if (patches.inFlight !== null) {
      const p = patchOf(patches.inFlight);
      const read = await call('GET', `/api/telemetry/issues/${p.id}?response_version=4`, undefined);
      const current = read?.body as { status: string; priority: string };
      const i = patches.inFlight % PATCHED;
      const applied = (patchApplied[i] ?? 0) > patchesOf(i, patches.acked);
      expect(current.status === p.body.status && current.priority === p.body.priority).toBe(
        applied,
      );
      if (!applied) {
        const res = await call('PATCH', `/api/telemetry/issues/${p.id}?response_version=4`, p.body);
        expect(res?.status).toBe(200);
        expect(res?.body).toMatchObject(p.body);
        patchApplied[i] = (patchApplied[i] ?? 0) + 1;
      }
    }

    // Deployments: a retry of an answered one returns the stored deployment as first answered;
    // the one in flight is stored now or was before (200 both), and then stays the same.
    for (let op = 0; op < deployments.acked; op++) {
      const res = await call('PUT', `/api/telemetry/deployments/crash-${op}`, deploymentBody(op));
      expect(res).toEqual({ status: 200, body: deployments.answers[op]?.body });
    }
    if (deployments.inFlight !== null) {
      const op = deployments.inFlight;
      const path = `/api/telemetry/deployments/crash-${op}`;
      const first = await call('PUT', path, deploymentBody(op));
      expect(first?.status).toBe(200);
      expect(await call('PUT', path, deploymentBody(op))).toEqual({
        status: 200,
        body: first?.body,
      });
    }

    // Projects: the same key and body replay the stored result, exactly as first answered.
    for (let op = 0; op < projects.acked; op++) {
      const res = await call('POST', '/api/projects', projectBody(op), {
        'Idempotency-Key': projectKey(op),
      });
      expect(res).toEqual({ status: 200, body: projects.answers[op]?.body });
    }
    if (projects.inFlight !== null) {
      const op = projects.inFlight;
      const headers = { 'Idempotency-Key': projectKey(op) };
      const first = await call('POST', '/api/projects', projectBody(op), headers);
      expect(first?.status).toBe(200);
      // Created before the kill: the replay is that project, not a second one.
      const before = afterKill.projects.find((p) => p.name === projectBody(op).name);
      if (before) expect(first?.body).toMatchObject({ id: before.id });
      expect(await call('POST', '/api/projects', projectBody(op), headers)).toEqual(first);
    }
    const listed = await fetch(`${svc.baseUrl}/api/projects`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const names = ((await listed.json()) as { name: string }[])
      .map((p) => p.name)
      .filter((n) => n.startsWith('Crash project '));
    expect(names.sort()).toEqual(
      Array.from({ length: sent(projects) }, (_, op) => projectBody(op).name).sort(),
    );

    // The activity route shows each applied change once.
    const one = patched[0] ?? '';
    const activity = await call(
      'GET',
      `/api/telemetry/issues/${one}/activity?response_version=2&limit=200`,
      undefined,
    );
    const entries = (activity?.body as { activity: { type: string }[] }).activity.filter(
      (e) => e.type === 'status' || e.type === 'priority',
    );
    expect(entries).toHaveLength(2 * (patchApplied[0] ?? 0));

    // In the store: each change once, and the deployments sent, each once.
    await svc.stop();
    const final = {
      groups: await Promise.all(
        groups.map(async (g) => ({
          triage: await triageOf(svc, g),
          activity: await activityCounts(svc, g),
        })),
      ),
      patched: {
        triage: await triageOf(svc, patched),
        activity: await activityCounts(svc, patched),
      },
      deployments: Number(
        (
          await storedRow<{ n: number }>(
            svc,
            'SELECT COUNT(*) AS n FROM deployments WHERE project_id = ?',
            [project.id],
          )
        )?.n,
      ),
    };
    for (const [g, progress] of bulks.entries()) {
      const applied = Math.max(
        bulkApplied[g] ?? 0,
        progress.inFlight === null ? 0 : progress.inFlight + 1,
      );
      const left = final.groups[g];
      expect(left?.triage).toEqual(groups[g]?.map(() => stateAfter(applied)));
      expect(left?.activity).toEqual(groups[g]?.map(() => 2 * applied));
    }
    expect(final.patched.triage).toEqual(patchApplied.map((n) => stateAfter(n)));
    expect(final.patched.activity).toEqual(patchApplied.map((n) => 2 * n));
    expect(final.deployments).toBe(sent(deployments));
  }, 180_000);
});
