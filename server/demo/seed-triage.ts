import type { DemoCredentials } from './demo-accounts';

/**
 * Gives the seeded issues some triage history, the way people would make it: real requests
 * to the issue routes (PATCH and bulk) by the demo owner and the demo admin, so the board,
 * the activity timelines and the notification inboxes have something to show.
 */

type FetchLike = (path: string, init: RequestInit) => Response | Promise<Response>;

export const DEMO_ADMIN_EMAIL = 'bruno@lookout.dev';

type Actor = 'owner' | 'admin';
/** An issue of the catalog, found by its service and exception type. */
type Target = { service: string; exceptionType: string };
type Assign = { email: string } | { team: string } | 'none';
type Change = { status?: string; priority?: string; assign?: Assign };

type Step =
  { by: Actor; issue: Target; change: Change } | { by: Actor; bulk: Target[]; change: Change };

const api = (exceptionType: string) => ({ service: 'checkout-api', exceptionType });

/** Who did what: enough to show every state, never the whole catalog. */
export const TRIAGE_STEPS: readonly Step[] = [
  // The checkout incident: owned by the Checkout team, fixed by checkout-api@2.14.1.
  { by: 'owner', issue: api('TypeError'), change: { assign: { team: 'checkout' } } },
  { by: 'owner', issue: api('TypeError'), change: { status: 'resolved' } },
  {
    by: 'admin',
    issue: { service: 'storefront-web', exceptionType: 'SyntaxError' },
    change: { assign: { team: 'checkout' }, status: 'resolved' },
  },
  // The Android cart crash, fixed by 5.4.1.
  {
    by: 'owner',
    issue: { service: 'shop-android', exceptionType: 'java.lang.NullPointerException' },
    change: { assign: { email: 'chen@lookout.dev' }, status: 'resolved' },
  },
  // Noise nobody will fix: archived.
  {
    by: 'admin',
    issue: { service: 'storefront-web', exceptionType: 'ReferenceError' },
    change: { status: 'archived' },
  },
  {
    by: 'owner',
    issue: { service: 'storefront-web', exceptionType: 'AbortError' },
    change: { status: 'archived' },
  },
  // Open work, assigned to people and teams.
  { by: 'admin', issue: api('TimeoutError'), change: { assign: { email: 'demo@lookout.dev' } } },
  {
    by: 'owner',
    issue: { service: 'inventory', exceptionType: 'org.postgresql.util.PSQLException' },
    change: { assign: { team: 'platform' } },
  },
  {
    by: 'admin',
    issue: { service: 'payments', exceptionType: 'KeyError' },
    change: { assign: { team: 'checkout' } },
  },
  // A warning someone decided matters more than its severity says.
  {
    by: 'admin',
    issue: api('ValidationError'),
    change: { priority: 'high', assign: { email: DEMO_ADMIN_EMAIL } },
  },
  // The short outages are over.
  {
    by: 'admin',
    bulk: [api('ReplyError'), { service: 'payments', exceptionType: 'psycopg2.OperationalError' }],
    change: { status: 'resolved' },
  },
];

type IssueLike = {
  id: string;
  service_name: string;
  diagnostics?: { exception?: { type: string } };
};
type Assignees = {
  assignees: { user_id: string; email: string }[];
  teams: { team_id: string; slug: string }[];
};

export class DemoTriageError extends Error {}

export async function seedDemoTriage(opts: {
  app: { request: FetchLike };
  credentials: DemoCredentials;
}): Promise<{ requests: number }> {
  let requests = 0;
  const send = async <T>(method: string, path: string, token: string | null, body?: unknown) => {
    requests++;
    const res = await opts.app.request(path, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status !== 200)
      throw new DemoTriageError(`demo triage: ${method} ${path} gave ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };

  const signIn = await send<{ access_token: string }>('POST', '/api/auth/login', null, {
    email: DEMO_ADMIN_EMAIL,
    password: opts.credentials.password,
  });
  const tokens: Record<Actor, string> = {
    owner: opts.credentials.account_token,
    admin: signIn.access_token,
  };

  // Every issue of the demo projects, and who can be assigned in each.
  const found: { id: string; projectId: string; key: string }[] = [];
  const people = new Map<string, Assignees>();
  for (const p of opts.credentials.projects) {
    const issues = await send<IssueLike[]>(
      'GET',
      `/api/telemetry/issues?project_id=${p.id}&response_version=4&limit=1000`,
      tokens.owner,
    );
    for (const i of issues)
      found.push({
        id: i.id,
        projectId: p.id,
        key: `${i.service_name}|${i.diagnostics?.exception?.type ?? ''}`,
      });
    people.set(
      p.id,
      await send<Assignees>(
        'GET',
        `/api/telemetry/issues/assignees?project_id=${p.id}&response_version=2`,
        tokens.owner,
      ),
    );
  }
  const issueOf = (t: Target) => {
    const hit = found.find((f) => f.key === `${t.service}|${t.exceptionType}`);
    if (!hit) throw new DemoTriageError(`demo triage: no issue ${t.service} ${t.exceptionType}`);
    return hit;
  };
  const bodyOf = (change: Change, projectId: string) => {
    const { assign, ...rest } = change;
    if (assign === undefined) return rest;
    const who = people.get(projectId);
    let assignee: string | undefined;
    if (assign === 'none') assignee = 'none';
    else if ('email' in assign)
      assignee = who?.assignees.find((a) => a.email === assign.email)?.user_id;
    else {
      const team = who?.teams.find((t) => t.slug === assign.team)?.team_id;
      assignee = team === undefined ? undefined : `team:${team}`;
    }
    if (assignee === undefined) throw new DemoTriageError('demo triage: unknown assignee');
    return { ...rest, assignee };
  };

  for (const step of TRIAGE_STEPS) {
    if ('issue' in step) {
      const issue = issueOf(step.issue);
      await send(
        'PATCH',
        `/api/telemetry/issues/${issue.id}?response_version=4`,
        tokens[step.by],
        bodyOf(step.change, issue.projectId),
      );
    } else {
      const issues = step.bulk.map(issueOf);
      const projectId = issues[0]?.projectId ?? '';
      await send('POST', '/api/telemetry/issues/bulk', tokens[step.by], {
        project_id: projectId,
        issue_ids: issues.map((i) => i.id),
        response_version: 2,
        ...bodyOf(step.change, projectId),
      });
    }
  }
  return { requests };
}
