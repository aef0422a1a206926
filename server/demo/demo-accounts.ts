import fs from 'node:fs';
import path from 'node:path';
import { issuePersonalToken } from '../auth/credentials';
import { hashPassword, hashToken, newId, newToken } from '../domain/secrets';
import { slugify } from '../domain/slug';
import { subscriptionFor } from '../domain/subscription';
import type { Deps } from '../core/deps';
import { PROJECT_KEYS, PROJECT_NAMES } from './world-model';

/** The shape tests and tools read from `<data dir>/demo-credentials.json`. Keep it. */
export type DemoCredentials = {
  email: string;
  password: string;
  account_token: string;
  projects: { id: string; name: string; ingest_key: string }[];
};

/** What seeding the accounts gives the rest of the demo: the credentials and the owner. */
export type DemoAccounts = { credentials: DemoCredentials; ownerAccountId: string };

const people = [
  { name: 'Ada Okafor', email: 'demo@lookout.dev', role: 'owner' as const },
  { name: 'Bruno Castillo', email: 'bruno@lookout.dev', role: 'admin' as const },
  { name: 'Chen Wei', email: 'chen@lookout.dev', role: 'member' as const },
  { name: null, email: 'oncall-bot@lookout.dev', role: 'member' as const },
];

const teams = [
  { slug: 'checkout', name: 'Checkout', members: [0, 1] },
  { slug: 'platform', name: 'Platform', members: [1, 2] },
];

/** Storefront Web, Checkout API, Mobile App: the names the demo world's generator uses. */
const projectNames = PROJECT_KEYS.map((key) => PROJECT_NAMES[key]);

/**
 * Creates the demo organization, its members and teams, and the projects with ingest keys,
 * and puts the owner on the pro plan. Only runs on an empty store; `writeDemoCredentials`
 * then writes the credentials file.
 */
export async function seedDemoAccounts(
  deps: Deps,
  password = 'lookout-demo',
): Promise<DemoAccounts> {
  const now = deps.now();
  const orgId = newId();
  await deps.store.accounts.createOrganization({
    id: orgId,
    slug: 'acme',
    name: 'Acme Shop',
    createdAt: now,
  });
  const accountIds: string[] = [];
  for (const p of people) {
    const id = newId();
    accountIds.push(id);
    await deps.store.accounts.create({
      id,
      email: p.email,
      name: p.name,
      passwordHash: await hashPassword(password),
      createdAt: now,
      revokedBefore: null,
    });
    await deps.store.accounts.addMember({ organizationId: orgId, accountId: id, role: p.role });
  }
  for (const t of teams) {
    await deps.store.accounts.createTeam(
      { id: newId(), organizationId: orgId, slug: t.slug, name: t.name },
      t.members.map((i) => accountIds[i] ?? ''),
    );
  }
  const projects: DemoCredentials['projects'] = [];
  for (const name of projectNames) {
    const id = newId();
    await deps.store.projects.create({
      id,
      organizationId: orgId,
      slug: slugify(name),
      name,
      createdAt: now,
    });
    const key = newToken('ingest');
    await deps.store.projects.createIngestKey({
      id: newId(),
      projectId: id,
      name: 'Demo SDK key',
      keyHash: hashToken(key),
      keyPrefix: key.slice(0, 12),
      createdAt: now,
      expiresAt: null,
      revokedAt: null,
    });
    projects.push({ id, name, ingest_key: key });
  }
  const owner = people[0];
  const ownerId = accountIds[0];
  if (!owner || !ownerId) throw new Error('demo world has no owner');
  // The owner pays for the organization: on the free plan (no projects per organization) its
  // three projects would be over the plan's limit. The other members stay on the free plan.
  const pro = subscriptionFor({ tier: 'pro' }, now);
  if (!pro.ok) throw new Error(pro.error);
  await deps.store.usage.setPlan(ownerId, pro.subscription);
  return {
    credentials: {
      email: owner.email,
      password,
      account_token: await issuePersonalToken(deps, ownerId),
      projects,
    },
    ownerAccountId: ownerId,
  };
}

export function writeDemoCredentials(dataDir: string, creds: DemoCredentials): string {
  const file = path.join(dataDir, 'demo-credentials.json');
  fs.writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  return file;
}
