import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/app-env';
import { jsonContent } from '../../http/openapi-shared';

const health = createRoute({
  method: 'get',
  path: '/healthz',
  tags: ['service'],
  summary: 'Liveness: 200 once the service accepts requests',
  responses: {
    200: jsonContent(z.object({ status: z.literal('ok') }), 'The service accepts requests.'),
  },
});

export function registerHealthRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(health, (c) => c.json({ status: 'ok' as const }, 200));
}
