import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type RunningService } from './test-support/start-service';

let svc: RunningService<false>;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

it('keeps idle connections longer than a load balancer or SDK keeps them (60 s), and says so', async () => {
  const agent = new http.Agent({ keepAlive: true });
  const head = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
    http
      .get(`${svc.baseUrl}/healthz`, { agent }, (res) => {
        res.resume();
        resolve(res.headers);
      })
      .on('error', reject);
  });
  agent.destroy();
  // Clients size their own idle limit from this hint; below 60 s a proxy's reuse races the close.
  expect(head['keep-alive']).toBe('timeout=65');
});
