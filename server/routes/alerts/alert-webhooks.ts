import { randomBytes } from 'node:crypto';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { testDelivery } from '../../alerts/delivery-payload';
import { fail } from '../../core/api-error';
import type { Deps } from '../../core/deps';
import type { WebhookRecord } from '../../core/store/state/alerts';
import { parseLimit } from '../../domain/read-rules/limit';
import { newId } from '../../domain/secrets';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import { withIdempotency } from '../../http/idempotency';
import { jsonBody } from '../../http/json-body';
import {
  bearerOrSessionSecurity,
  errorResponses,
  jsonContent,
  orNull,
  UuidParam,
} from '../../http/openapi-shared';
import { readPathUuid } from '../../http/path-params';
import { UUID_FACETS, integerFacets, key, requiredKey } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { ALERT_AUTH, IdempotencyHeader, organizationRole, requireChangeRole } from './alert-access';
import {
  CURSOR_FACETS,
  DeliverySchema,
  WebhookSchema,
  decodeCursor,
  uuidKey,
  deliveryView,
  page,
  webhookView,
} from './alert-schema';

export const DELIVERY_LIMIT = { fallback: 50, max: 200 };
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** `https:`, or `http:` to a loopback host (so a receiver on this machine can test). */
export function checkWebhookUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail.validation('url must be an absolute URL', 'Send the https URL of your receiver.');
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp)
    throw fail.validation(
      'url must use https (http only for 127.0.0.1, ::1 or localhost)',
      'Serve your receiver over https and send that URL.',
    );
  if (url.username !== '' || url.password !== '')
    throw fail.validation(
      'url must not carry credentials',
      'Remove the user and password from the URL; check the signature instead.',
    );
  return url.toString();
}

const WebhookBody = z
  .object({
    organization_id: z.uuid(),
    name: z.string().trim().min(1).max(200),
    url: z.string().max(2048),
  })
  .strict()
  .openapi('AlertWebhookCreate');

const CreatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().openapi({
    description: 'The signing secret, shown only in this answer: store it in your receiver.',
  }),
}).openapi('AlertWebhookCreated');

const WebhooksQuery = readQuery(
  { organization_id: requiredKey('Required: an organization you are a member of.', UUID_FACETS) },
  (q) => ({ organizationId: uuidKey('organization_id', q.organization_id) }),
);

const DeliveriesQuery = readQuery(
  {
    cursor: key('`next_cursor` of the previous page.', CURSOR_FACETS),
    limit: key(
      `Deliveries per page: default ${DELIVERY_LIMIT.fallback}, maximum ${DELIVERY_LIMIT.max} (a larger value is replaced by it).`,
      integerFacets({ minimum: 1, default: DELIVERY_LIMIT.fallback }),
    ),
  },
  (q) => ({ after: decodeCursor(q.cursor), limit: parseLimit(q.limit, DELIVERY_LIMIT) }),
);

const WebhookParams = z.object({ webhook_id: UuidParam('webhook_id') });

const listWebhooks = createRoute({
  method: 'get',
  path: '/api/alerts/webhooks',
  tags: ['alerts'],
  summary: 'Webhooks of an organization',
  description: 'Oldest first. Members read; secrets are never returned here.',
  security: bearerOrSessionSecurity,
  request: { query: WebhooksQuery },
  responses: {
    200: jsonContent(
      z.object({ webhooks: z.array(WebhookSchema) }).openapi('AlertWebhookList'),
      'The webhooks.',
    ),
    ...errorResponses(401, 404, 422),
  },
});

const createWebhook = createRoute({
  method: 'post',
  path: '/api/alerts/webhooks',
  tags: ['alerts'],
  summary: 'Create a webhook',
  description:
    'Owners and admins (`403 role_forbidden`). `url` must be https (http only for 127.0.0.1, ::1 or localhost). The answer holds the signing `secret`, shown once. Each delivery is a POST with `Lookout-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, `Lookout-Event` and `Lookout-Delivery`. Optional `Idempotency-Key` (a replay within a day returns the same secret).',
  security: bearerOrSessionSecurity,
  request: {
    query: z.object({}).strict(),
    headers: IdempotencyHeader,
    body: { required: true, content: { 'application/json': { schema: WebhookBody } } },
  },
  responses: {
    200: jsonContent(CreatedWebhookSchema, 'The webhook and its secret.'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422),
  },
});

const deleteWebhook = createRoute({
  method: 'delete',
  path: '/api/alerts/webhooks/{webhook_id}',
  tags: ['alerts'],
  summary: 'Delete a webhook',
  description:
    'Owners and admins. Its pending deliveries and delivery log go with it; rules naming it stop sending to it.',
  security: bearerOrSessionSecurity,
  request: { params: WebhookParams, query: z.object({}).strict() },
  responses: {
    200: jsonContent(
      z.object({ deleted: z.literal(true) }).openapi('AlertWebhookDeleted'),
      'Deleted.',
    ),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

const sendTest = createRoute({
  method: 'post',
  path: '/api/alerts/webhooks/{webhook_id}/test',
  tags: ['alerts'],
  summary: 'Send a test delivery',
  description:
    'Owners and admins. Stores a `test` delivery (pending) and answers at once; the delivery worker sends it within seconds. Follow it in the delivery log.',
  security: bearerOrSessionSecurity,
  request: { params: WebhookParams, query: z.object({}).strict() },
  responses: {
    200: jsonContent(DeliverySchema, 'The pending test delivery.'),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

const listDeliveries = createRoute({
  method: 'get',
  path: '/api/alerts/webhooks/{webhook_id}/deliveries',
  tags: ['alerts'],
  summary: 'Delivery log of a webhook',
  description:
    'Newest first, each with its attempts (HTTP status, response time, error). Retries follow 30 s, 2 min, 10 min, 1 h, 6 h; after the sixth failed attempt the delivery is `failed`. Members read.',
  security: bearerOrSessionSecurity,
  request: { params: WebhookParams, query: DeliveriesQuery },
  responses: {
    200: jsonContent(
      z
        .object({ deliveries: z.array(DeliverySchema), next_cursor: orNull(z.string()) })
        .openapi('AlertDeliveryPage'),
      'A page of deliveries.',
    ),
    ...errorResponses(400, 401, 404, 422),
  },
});

export function registerAlertWebhookRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, ALERT_AUTH);
  /** The webhook if the account is in its organization (else `404`), with the change role when asked. */
  const webhookFor = async (accountId: string, webhookId: string, change: boolean) => {
    const webhook = await deps.store.alerts.webhook(webhookId);
    if (!webhook) throw fail.notFound('webhook not found');
    const memberships = await deps.store.accounts.membershipsOf(accountId);
    const m = memberships.find((x) => x.organizationId === webhook.organizationId);
    if (!m) throw fail.notFound('webhook not found');
    if (change) requireChangeRole(m.role, 'webhooks');
    return webhook;
  };

  app.openapi(
    { ...listWebhooks, middleware: [auth, strictQuery(WebhooksQuery)] as const },
    async (c) => {
      const { organizationId } = c.req.valid('query');
      await organizationRole(deps, c.get('principal').accountId, organizationId);
      const webhooks = await deps.store.alerts.webhooks(organizationId);
      return c.json({ webhooks: webhooks.map(webhookView) }, 200);
    },
  );

  app.openapi(
    {
      ...createWebhook,
      middleware: [auth, strictQuery(createWebhook.request.query), jsonBody()] as const,
    },
    async (c) => {
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const created = await withIdempotency(
        deps,
        c,
        'POST /api/alerts/webhooks',
        body,
        async (remember) => {
          const role = await organizationRole(deps, accountId, body.organization_id);
          requireChangeRole(role, 'webhooks');
          const row: WebhookRecord = {
            id: newId(),
            organizationId: body.organization_id.toLowerCase(),
            name: body.name,
            url: checkWebhookUrl(body.url),
            secret: `whsec_${randomBytes(24).toString('hex')}`,
            createdBy: accountId,
            createdAt: deps.now(),
          };
          const view = { ...webhookView(row), secret: row.secret };
          await deps.store.alerts.createWebhook(row, remember(view));
          return view;
        },
      );
      return c.json(created, 200);
    },
  );

  app.openapi(
    { ...deleteWebhook, middleware: [auth, strictQuery(deleteWebhook.request.query)] as const },
    async (c) => {
      const webhookId = readPathUuid(c.req.param('webhook_id'), 'webhook_id');
      await webhookFor(c.get('principal').accountId, webhookId, true);
      if (!(await deps.store.alerts.deleteWebhook(webhookId)))
        throw fail.notFound('webhook not found');
      return c.json({ deleted: true as const }, 200);
    },
  );

  app.openapi(
    { ...sendTest, middleware: [auth, strictQuery(sendTest.request.query)] as const },
    async (c) => {
      const webhookId = readPathUuid(c.req.param('webhook_id'), 'webhook_id');
      const webhook = await webhookFor(c.get('principal').accountId, webhookId, true);
      const delivery = testDelivery(webhook, deps.now());
      await deps.store.alerts.enqueueDelivery(delivery);
      return c.json(deliveryView(delivery), 200);
    },
  );

  app.openapi(
    { ...listDeliveries, middleware: [auth, strictQuery(DeliveriesQuery)] as const },
    async (c) => {
      const webhookId = readPathUuid(c.req.param('webhook_id'), 'webhook_id');
      const { after, limit } = c.req.valid('query');
      await webhookFor(c.get('principal').accountId, webhookId, false);
      const rows = await deps.store.alerts.deliveries(webhookId, after, limit + 1);
      const p = page(rows, limit, (d) => ({ time: d.createdAt, id: d.id }), deliveryView);
      return c.json({ deliveries: p.items, next_cursor: p.next_cursor }, 200);
    },
  );
}
