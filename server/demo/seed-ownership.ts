import type { DemoCredentials } from './demo-accounts';

/**
 * Issue ownership for the Checkout API project, set the way a person would: one `PUT
 * /api/telemetry/issues/ownership` by the demo owner, with ownership rules (Sentry's syntax)
 * and a CODEOWNERS file (GitHub's), so issue owners and suggested assignees have something
 * to show. One CODEOWNERS owner (`@tech-writers`) names no team on purpose: the ownership
 * editor lists it as unresolved.
 */

type FetchLike = (path: string, init: RequestInit) => Response | Promise<Response>;

export const OWNERSHIP_PROJECT = 'Checkout API';

export const DEMO_OWNERSHIP_RULES = `# Ownership rules for Checkout API: <type>:<pattern> <owner>…
# The first matching line names the owners; owners are user@email or #team-slug.

# The checkout flow and orders
path:src/checkout/* #checkout demo@lookout.dev
path:src/orders/* #checkout
path:src/routes/checkout.ts #checkout

# Payments (Python)
module:app.payments.* bruno@lookout.dev #checkout

# Inventory (JVM) and the shared infrastructure
module:com.acme.inventory.* #platform chen@lookout.dev
path:src/cache/* #platform
path:src/clients/* #platform
url:*/api/prices* #platform
`;

export const DEMO_CODEOWNERS = `# CODEOWNERS of the acme/checkout repository (the last matching line wins)
*                       @platform
/src/                   @checkout
/src/cache/             @platform chen@lookout.dev
/src/price-book.ts      bruno@lookout.dev
/app/payments/          @checkout bruno@lookout.dev
/docs/                  @tech-writers
`;

export class DemoOwnershipError extends Error {}

export async function seedDemoOwnership(opts: {
  app: { request: FetchLike };
  credentials: DemoCredentials;
}): Promise<void> {
  const project = opts.credentials.projects.find((p) => p.name === OWNERSHIP_PROJECT);
  if (!project) throw new DemoOwnershipError(`demo ownership: no project ${OWNERSHIP_PROJECT}`);
  const res = await opts.app.request('/api/telemetry/issues/ownership', {
    method: 'PUT',
    headers: {
      Authorization: `Bearer ${opts.credentials.account_token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      project_id: project.id,
      rules: DEMO_OWNERSHIP_RULES,
      codeowners: DEMO_CODEOWNERS,
    }),
  });
  if (res.status !== 200)
    throw new DemoOwnershipError(`demo ownership: PUT gave ${res.status} ${await res.text()}`);
}
