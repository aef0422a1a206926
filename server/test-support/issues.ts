import { expect } from 'vitest';
import { hashPassword, newId } from '../domain/secrets';
import type { OrgRole } from '../domain/org-role';
import { call, signIn, type ApiResponse } from './api-client';
import type { RunningService } from './start-service';
import { storeSql } from './store-sql';
import { NATIVE, addIngestKey, ingest, nativeBody } from './telemetry';

/** Helpers for the issue contract tests: people, teams, projects and issues of a tenant. */

export type Person = { accountId: string; email: string; name: string | null; token: string };

const PASSWORD = 'pw-for-tests';

/** A signed-in account; a member of the organization with `role`, or of none (`null`). */
export async function addPerson(
  svc: RunningService<boolean>,
  organizationId: string | null,
  role: OrgRole | null,
  name: string | null = null,
): Promise<Person> {
  const accountId = newId();
  const email = `${role ?? 'outsider'}-${accountId.slice(0, 8)}@elsewhere.test`;
  await svc.deps.store.accounts.create({
    id: accountId,
    email,
    name,
    passwordHash: await hashPassword(PASSWORD),
    createdAt: svc.clock.now(),
    revokedBefore: null,
  });
  if (organizationId !== null && role !== null)
    await svc.deps.store.accounts.addMember({ organizationId, accountId, role });
  const { accessToken } = await signIn(svc.baseUrl, email, PASSWORD);
  return { accountId, email, name, token: accessToken };
}

export async function addTeam(
  svc: RunningService<boolean>,
  organizationId: string,
  slug: string,
  memberIds: string[],
): Promise<string> {
  const id = newId();
  await svc.deps.store.accounts.createTeam(
    { id, organizationId, slug, name: slug[0]?.toUpperCase() + slug.slice(1) },
    memberIds,
  );
  return id;
}

/** Another project of an organization, with an ingest key. */
export async function addProject(
  svc: RunningService<boolean>,
  organizationId: string,
): Promise<{ projectId: string; ingestKey: string }> {
  const projectId = newId();
  await svc.deps.store.projects.create({
    id: projectId,
    organizationId,
    slug: `p-${projectId.slice(0, 8)}`,
    name: `P ${projectId.slice(0, 8)}`,
    createdAt: svc.clock.now(),
  });
  return { projectId, ingestKey: await addIngestKey(svc, projectId) };
}

/**
 * Takes an account out of an organization (there is no route for it yet), straight in the
 * store (SQLite or PostgreSQL); `addMember` of the store puts it back.
 */
export async function removeMembership(
  svc: RunningService<boolean>,
  organizationId: string,
  accountId: string,
): Promise<void> {
  await deleteRows(
    svc,
    'DELETE FROM memberships WHERE organization_id = ? AND account_id = ? RETURNING account_id',
    [organizationId, accountId],
  );
}

/** Takes an account out of a team, straight in the store. */
export async function removeTeamMembership(
  svc: RunningService<boolean>,
  teamId: string,
  accountId: string,
): Promise<void> {
  await deleteRows(
    svc,
    'DELETE FROM team_members WHERE team_id = ? AND account_id = ? RETURNING account_id',
    [teamId, accountId],
  );
}

/** Runs a DELETE … RETURNING through `rows`, which both stores answer. */
async function deleteRows(
  svc: RunningService<boolean>,
  statement: string,
  params: unknown[],
): Promise<void> {
  const sql = storeSql(svc);
  try {
    await sql.rows(statement, params);
  } finally {
    await sql.close();
  }
}

/** Ingests issue items through the native route and expects them all stored. */
export async function ingestIssues(
  svc: RunningService<boolean>,
  key: string,
  items: Record<string, unknown>[],
): Promise<void> {
  const res = await ingest(svc, NATIVE, key, nativeBody({ issues: items as never }));
  expect(res.status, res.text).toBe(200);
}

export type IssueJson = Record<string, unknown> & {
  id: string;
  status: string;
  fingerprint: string;
  triage: { effective_severity: string; ignored: boolean; rule_applied: boolean };
};

/** The id of the issue grouping an occurrence (by fingerprint, through the list route). */
export async function issueIdOf(
  svc: RunningService<boolean>,
  token: string,
  projectId: string,
  fingerprint: string,
): Promise<string> {
  const res = await call(svc.baseUrl, 'GET', `/api/telemetry/issues?project_id=${projectId}`, {
    token,
  });
  expect(res.status, res.text).toBe(200);
  const hit = (res.body as IssueJson[]).find((i) => i.fingerprint === fingerprint);
  if (!hit) throw new Error(`no issue with fingerprint ${fingerprint}`);
  return hit.id;
}

export const idsOf = (res: ApiResponse) => (res.body as { id: string }[]).map((i) => i.id);
