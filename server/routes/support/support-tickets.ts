import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { newId } from '../../domain/secrets';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { withIdempotency } from '../../http/idempotency';
import { jsonBody } from '../../http/json-body';
import { bearerSecurity, errorResponses, jsonContent, UuidParam } from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import { readPathUuid } from '../../http/path-params';
import { SUPPORT_SEVERITIES, type SupportTicketRecord } from '../../core/store/state/support';
import { iso } from '../../views/telemetry-views';

/** Bodies of the ticket route; the message is the long part. */
export const TICKET_BODY_MAX_BYTES = 64 * 1024;
export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 10_000;
/** An attached bundle (the whole request body) may be this large; larger is `413`. */
export const CONTEXT_BODY_MAX_BYTES = 256 * 1024;
/** Attachments per ticket. */
export const CONTEXTS_PER_TICKET = 20;

const NOT_SENT =
  'Stored for the operator of this service; no e-mail or other message is sent anywhere.';

const IdempotencyHeader = (required: boolean) =>
  z.object({
    'idempotency-key': (required ? z.string() : z.string().optional()).openapi({
      description: `${required ? 'Required' : 'Optional'} retry key: 1 to 128 visible ASCII characters.`,
    }),
  });

const TicketBody = z
  .object({
    subject: z.string().trim().min(1).max(SUBJECT_MAX),
    message: z.string().trim().min(1).max(MESSAGE_MAX),
    project_id: z.uuid().optional().openapi({
      description: 'A project the caller can read (unreadable is `404`).',
    }),
    severity: z
      .enum(SUPPORT_SEVERITIES)
      .optional()
      .openapi({ description: '`normal` when omitted.' }),
  })
  .strict();

const TicketSchema = z
  .object({
    ticket_id: z.string().openapi({ format: 'uuid' }),
    status: z.enum(['open']),
    subject: z.string(),
    message: z.string(),
    project_id: z.string().nullable(),
    severity: z.enum(SUPPORT_SEVERITIES),
    created_at: z.string().openapi({ format: 'date-time' }),
    delivery: z.enum(['stored_for_operator']).openapi({ description: NOT_SENT }),
  })
  .openapi('SupportTicket');

/** A bundle as an investigation read returned it: checked for its head only, kept as sent. */
const BundleSchema = z
  .object({
    schema_version: z.number().int().min(1),
    subject: z
      .object({ kind: z.string().min(1).max(32), id: z.string().min(1).max(300) })
      .catchall(z.unknown()),
  })
  .catchall(z.unknown());

const INVESTIGATION_PATH =
  /^\/api\/(?:logs\/[^/?#]+\/investigation|telemetry\/(?:issues\/[^/?#]+\/(?:investigation|correction-verification)|traces\/[^/?#]+\/(?:spans\/[^/?#]+\/)?investigation|actions\/[^/?#]+\/investigation|metrics\/investigation|releases\/investigation))(?:\?[\x21-\x7e]*)?$/;

const ContextBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('investigation'), bundle: BundleSchema }).strict(),
  z
    .object({
      kind: z.literal('reference'),
      path: z.string().max(2048).regex(INVESTIGATION_PATH, 'must be an investigation read path'),
    })
    .strict(),
]);

const ContextSchema = z
  .object({
    context_id: z.string().openapi({ format: 'uuid' }),
    ticket_id: z.string().openapi({ format: 'uuid' }),
    kind: z.enum(['investigation', 'reference']),
    subject: z
      .object({ kind: z.string(), id: z.string() })
      .nullable()
      .openapi({ description: 'The attached bundle’s subject; `null` for a reference.' }),
    path: z.string().nullable(),
    bytes: z.number().int(),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('SupportTicketContext');

const createTicket = createRoute({
  method: 'post',
  path: '/api/support/tickets',
  tags: ['support'],
  summary: 'Open a support ticket',
  description: `\`{subject (1 to ${SUBJECT_MAX} characters), message (1 to ${MESSAGE_MAX}), project_id?, severity? (low, normal, high, urgent)}\`; unknown keys are \`422\`; the body is at most ${TICKET_BODY_MAX_BYTES / 1024} KiB. ${NOT_SENT} Optional \`Idempotency-Key\`: the same key and body replay the stored ticket (\`200\`), another body is \`409 idempotency_conflict\`.`,
  security: bearerSecurity,
  request: {
    query: z.object({}).strict(),
    headers: IdempotencyHeader(false),
    body: { required: true, content: { 'application/json': { schema: TicketBody } } },
  },
  responses: {
    200: jsonContent(TicketSchema, 'The stored ticket.'),
    ...errorResponses(400, 401, 404, 409, 413, 415, 422),
  },
});

const addContext = createRoute({
  method: 'post',
  path: '/api/support/tickets/{ticket_id}/context',
  tags: ['support'],
  summary: 'Attach an investigation bundle (or a path to one) to a ticket',
  description: `\`{kind: "investigation", bundle}\` with a bundle exactly as an investigation read returned it (it must start with \`schema_version\` and \`subject\` {kind, id}; stored as sent), or \`{kind: "reference", path}\` with the GET path of an investigation read (stored, never fetched). The whole body is at most ${CONTEXT_BODY_MAX_BYTES / 1024} KiB (\`413\` above); a ticket holds at most ${CONTEXTS_PER_TICKET} attachments (\`422\` after). Required \`Idempotency-Key\` (missing is \`422\`). A ticket of another account is \`404\`.`,
  security: bearerSecurity,
  request: {
    query: z.object({}).strict(),
    params: z.object({ ticket_id: UuidParam('ticket_id') }),
    headers: IdempotencyHeader(true),
    body: { required: true, content: { 'application/json': { schema: ContextBody } } },
  },
  responses: {
    200: jsonContent(ContextSchema, 'The stored attachment.'),
    ...errorResponses(400, 401, 404, 409, 413, 415, 422),
  },
});

export const ticketView = (t: SupportTicketRecord) => ({
  ticket_id: t.id,
  status: t.status,
  subject: t.subject,
  message: t.message,
  project_id: t.projectId,
  severity: t.severity,
  created_at: iso(t.createdAt),
  delivery: 'stored_for_operator' as const,
});

export function registerSupportTicketRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  app.openapi(
    {
      ...createTicket,
      middleware: [
        auth,
        strictQuery(createTicket.request.query),
        jsonBody(TICKET_BODY_MAX_BYTES),
      ] as const,
    },
    async (c) => {
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const created = await withIdempotency(
        deps,
        c,
        'POST /api/support/tickets',
        body,
        async (remember) => {
          const projectId = body.project_id?.toLowerCase() ?? null;
          if (projectId !== null && !(await deps.store.projects.readable(accountId, projectId)))
            throw fail.notFound('project not found');
          const row: SupportTicketRecord = {
            id: newId(),
            accountId,
            projectId,
            subject: body.subject,
            message: body.message,
            severity: body.severity ?? 'normal',
            status: 'open',
            createdAt: deps.now(),
          };
          const view = ticketView(row);
          await deps.store.support.createTicket(row, remember(view));
          return view;
        },
      );
      return c.json(created, 200);
    },
  );

  app.openapi(
    {
      ...addContext,
      middleware: [
        auth,
        strictQuery(addContext.request.query),
        jsonBody(CONTEXT_BODY_MAX_BYTES),
      ] as const,
    },
    async (c) => {
      const ticketId = readPathUuid(c.req.param('ticket_id'), 'ticket_id');
      // The header schema has refused a request without the key (422); withIdempotency checks its form.
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const created = await withIdempotency(
        deps,
        c,
        `POST /api/support/tickets/${ticketId}/context`,
        body,
        async (remember) => {
          const ticket = await deps.store.support.ticketOf(accountId, ticketId);
          if (ticket === null) throw fail.notFound('ticket not found');
          const bundle = body.kind === 'investigation' ? JSON.stringify(body.bundle) : null;
          const path = body.kind === 'reference' ? body.path : null;
          const row = {
            id: newId(),
            ticketId,
            kind: body.kind,
            bundle,
            path,
            bytes: Buffer.byteLength(bundle ?? path ?? ''),
            createdAt: deps.now(),
          };
          const view = {
            context_id: row.id,
            ticket_id: ticketId,
            kind: row.kind,
            subject:
              body.kind === 'investigation'
                ? { kind: body.bundle.subject.kind, id: body.bundle.subject.id }
                : null,
            path,
            bytes: row.bytes,
            created_at: iso(row.createdAt),
          };
          // The limit is checked inside the write, so concurrent attachments cannot pass it.
          if (!(await deps.store.support.addContext(row, CONTEXTS_PER_TICKET, remember(view))))
            throw fail.validation(
              `a ticket holds at most ${CONTEXTS_PER_TICKET} attachments`,
              'Open another ticket for more context.',
            );
          return view;
        },
      );
      return c.json(created, 200);
    },
  );
}
