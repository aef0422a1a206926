import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { hashToken, newId, newToken } from '../../domain/secrets';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { jsonBody } from '../../http/json-body';
import {
  bearerOrSessionSecurity,
  errorResponses,
  jsonContent,
  UuidParam,
} from '../../http/openapi-shared';
import { readPathUuid } from '../../http/path-params';
import { epochDay, flushToolConnectionUses } from '../../auth/tool-connection-usage';
import type { ToolConnectionRow } from '../../core/store/state/tool-connections';
import { announceToolConnectionRevoked } from '../../auth/tool-connection-revocations';

/** Limits of a tool connection. */
export const TOOL_CONNECTION_LIMITS = {
  nameChars: 100,
  projects: 50,
  /** Active (neither revoked nor expired) connections an account may hold. */
  active: 25,
  /** Days of `uses_by_day` in the list, today included. */
  days: 7,
} as const;

const DAY = 86_400_000;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const ToolConnectionSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    yours: z.boolean().openapi({ description: 'Whether the caller created it.' }),
    created_by: z
      .object({
        account_id: z.string().openapi({ format: 'uuid' }),
        name: z.string().nullable(),
        email: z.string(),
      })
      .openapi({ description: 'The account whose access the connection delegates.' }),
    token_prefix: z
      .string()
      .openapi({ description: 'The first characters of the token, to recognise it.' }),
    state: z.enum(['active', 'expired', 'revoked']),
    projects: z
      .array(
        z.object({
          id: z.string().openapi({ format: 'uuid' }),
          name: z.string().nullable().openapi({
            description: '`null` when the account can no longer read the project.',
          }),
        }),
      )
      .openapi({ description: 'The projects the connection covers.' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    expires_at: z.string().nullable().openapi({ format: 'date-time' }),
    revoked_at: z.string().nullable().openapi({ format: 'date-time' }),
    last_used_at: z.string().nullable().openapi({
      format: 'date-time',
      description: 'Written at most once a minute: a use may take up to a minute to show.',
    }),
    uses_by_day: z
      .array(z.object({ day: z.string().openapi({ format: 'date' }), uses: z.number().int() }))
      .openapi({ description: 'Requests per UTC day over the last 7 days, oldest first.' }),
  })
  .openapi('ToolConnection', {
    description:
      "Ours: the spec's delegated credential. A read-only bearer for some of the account's projects: read routes only (GET, and the analytics POST reads), only the projects it covers (others give `403 forbidden`; with no project given a read covers only these), never the account routes or a write (`403 forbidden`). Revoked or expired: `401 unauthorized`.",
  });

const CreatedSchema = ToolConnectionSchema.extend({
  token: z.string().openapi({
    description: 'The bearer token. Returned once, here; only its hash is stored.',
  }),
}).openapi('CreatedToolConnection');

const listRoute = createRoute({
  method: 'get',
  path: '/api/account/tool-connections',
  tags: ['account'],
  summary: "The account's tool connections",
  description:
    "Newest first, revoked and expired ones included, with the projects each covers, when it was last used and its uses per day: the caller's own, and for an organization owner also every other member's connection that covers a project of that organization. Account bearer or browser session; a tool connection cannot list them.",
  security: bearerOrSessionSecurity,
  request: { query: z.object({}).strict() },
  responses: {
    200: jsonContent(z.array(ToolConnectionSchema), 'The connections.'),
    ...errorResponses(401, 403, 422),
  },
});

const createRoute_ = createRoute({
  method: 'post',
  path: '/api/account/tool-connections',
  tags: ['account'],
  summary: 'Create a tool connection',
  description: `A read-only bearer for 1 to ${String(TOOL_CONNECTION_LIMITS.projects)} projects the account can read, with an optional expiry. The token is in this response only. At most ${String(TOOL_CONNECTION_LIMITS.active)} active connections per account (\`422 validation_failed\`). A project the account cannot read gives \`404 not_found\` for the whole request.`,
  security: bearerOrSessionSecurity,
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z
            .object({
              name: z
                .string()
                .trim()
                .min(1)
                .max(TOOL_CONNECTION_LIMITS.nameChars)
                .openapi({
                  description: `What the connection is for, 1 to ${String(TOOL_CONNECTION_LIMITS.nameChars)} characters.`,
                  example: 'CI release check',
                }),
              project_ids: z
                .array(z.string().regex(UUID).openapi({ format: 'uuid' }))
                .min(1)
                .max(TOOL_CONNECTION_LIMITS.projects)
                .openapi({ description: 'Distinct project ids the account can read.' }),
              expires_at: z.iso
                .datetime({ offset: false })
                .nullable()
                .optional()
                .openapi({ description: 'RFC3339 UTC, in the future; omit or null for none.' }),
            })
            .strict(),
        },
      },
    },
  },
  responses: {
    200: jsonContent(CreatedSchema, 'The new connection, with its token (shown once).'),
    ...errorResponses(400, 401, 403, 404, 413, 415, 422),
  },
});

const revokeRoute = createRoute({
  method: 'delete',
  path: '/api/account/tool-connections/{connection_id}',
  tags: ['account'],
  summary: 'Revoke a tool connection',
  description:
    "Takes effect at once: the next request with its token gives `401 unauthorized`. The caller's own connection, or (for an organization owner) one that covers a project of that organization; any other id is `404 not_found`. Revoking again returns the same revoked connection.",
  security: bearerOrSessionSecurity,
  request: { params: z.object({ connection_id: UuidParam('connection_id') }) },
  responses: {
    200: jsonContent(ToolConnectionSchema, 'The revoked connection.'),
    ...errorResponses(400, 401, 403, 404),
  },
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const dayText = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

function stateOf(row: ToolConnectionRow, now: number) {
  if (row.revokedAt !== null) return 'revoked' as const;
  if (row.expiresAt !== null && row.expiresAt <= now) return 'expired' as const;
  return 'active' as const;
}

/** Ids of the projects in organizations the account owns: their connections are its to oversee. */
async function ownedProjectIds(deps: Deps, accountId: string): Promise<Set<string>> {
  const readable = await deps.store.projects.readableBy(accountId);
  return new Set(readable.filter((p) => p.role === 'owner').map((p) => p.id));
}

async function viewsOf(deps: Deps, accountId: string, rows: ToolConnectionRow[]) {
  const now = deps.now();
  const creators = new Map(
    await Promise.all(
      [...new Set(rows.map((r) => r.accountId))].map(
        async (id) => [id, await deps.store.accounts.byId(id)] as const,
      ),
    ),
  );
  const today = epochDay(now);
  const fromDay = today - TOOL_CONNECTION_LIMITS.days + 1;
  const names = new Map(
    (await deps.store.projects.readableBy(accountId)).map((p) => [p.id, p.name]),
  );
  const uses = await deps.store.toolConnections.usesByDay(
    rows.map((r) => r.id),
    fromDay,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    yours: row.accountId === accountId,
    created_by: {
      account_id: row.accountId,
      name: creators.get(row.accountId)?.name ?? null,
      email: creators.get(row.accountId)?.email ?? '',
    },
    token_prefix: row.tokenPrefix,
    state: stateOf(row, now),
    projects: row.projectIds.map((id) => ({ id, name: names.get(id) ?? null })),
    created_at: new Date(row.createdAt).toISOString(),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    last_used_at: iso(row.lastUsedAt),
    uses_by_day: Array.from({ length: TOOL_CONNECTION_LIMITS.days }, (_, i) => {
      const day = fromDay + i;
      const n = uses.filter((u) => u.id === row.id && u.day === day);
      return { day: dayText(day), uses: n.reduce((sum, u) => sum + u.uses, 0) };
    }),
  }));
}

export function registerToolConnectionRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  // The account API: a tool connection itself is refused here (requireAccount, session routes).
  const auth = requireAccount(deps, { session: true });

  app.openapi({ ...listRoute, middleware: [auth] as const }, async (c) => {
    const { accountId } = c.get('principal');
    await flushToolConnectionUses(deps);
    const mine = await deps.store.toolConnections.ofAccount(accountId);
    const owned = [...(await ownedProjectIds(deps, accountId))];
    const others = (await deps.store.toolConnections.onProjects(owned)).filter(
      (r) => r.accountId !== accountId,
    );
    const rows = [...mine, ...others].sort((a, b) => b.createdAt - a.createdAt);
    return c.json(await viewsOf(deps, accountId, rows), 200);
  });

  app.openapi({ ...createRoute_, middleware: [auth, jsonBody()] as const }, async (c) => {
    const { accountId } = c.get('principal');
    const body = c.req.valid('json');
    const projectIds = body.project_ids.map((id) => id.toLowerCase());
    if (new Set(projectIds).size !== projectIds.length) {
      throw fail.validation('project_ids must not repeat a project', 'Send each project id once.');
    }
    const now = deps.now();
    const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
    if (expiresAt !== null && expiresAt <= now) {
      throw fail.validation(
        'expires_at must be in the future',
        'Send a future RFC3339 UTC time, or omit expires_at for a connection that does not expire.',
      );
    }
    const readable = new Set((await deps.store.projects.readableBy(accountId)).map((p) => p.id));
    if (projectIds.some((id) => !readable.has(id))) {
      throw fail.notFound('a project in project_ids is unknown or not readable by this account');
    }
    const existing = await deps.store.toolConnections.ofAccount(accountId);
    if (
      existing.filter((r) => stateOf(r, now) === 'active').length >= TOOL_CONNECTION_LIMITS.active
    ) {
      throw fail.validation(
        `an account holds at most ${String(TOOL_CONNECTION_LIMITS.active)} active tool connections`,
        'Revoke a tool connection you no longer use, then create this one.',
      );
    }
    const token = newToken('toolConnection');
    const row: ToolConnectionRow = {
      id: newId(),
      accountId,
      name: body.name,
      tokenPrefix: token.slice(0, 12),
      projectIds,
      createdAt: now,
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    };
    await deps.store.toolConnections.insert({ ...row, tokenHash: hashToken(token) });
    const [view] = await viewsOf(deps, accountId, [row]);
    if (!view) throw fail.internal();
    return c.json({ ...view, token }, 200);
  });

  app.openapi({ ...revokeRoute, middleware: [auth] as const }, async (c) => {
    const { accountId } = c.get('principal');
    const id = readPathUuid(c.req.param('connection_id'), 'connection_id');
    const found = await deps.store.toolConnections.byId(id);
    const oversees = async (r: ToolConnectionRow) => {
      const owned = await ownedProjectIds(deps, accountId);
      return r.projectIds.some((p) => owned.has(p));
    };
    if (!found || (found.accountId !== accountId && !(await oversees(found))))
      throw fail.notFound('tool connection not found');
    await deps.store.toolConnections.revoke(id, deps.now());
    announceToolConnectionRevoked(deps, id);
    const row = await deps.store.toolConnections.byId(id);
    if (!row) throw fail.notFound('tool connection not found');
    const [view] = await viewsOf(deps, accountId, [row]);
    if (!view) throw fail.internal();
    return c.json(view, 200);
  });
}
