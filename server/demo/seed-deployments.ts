import type { DemoCredentials } from './demo-accounts';
import { deploymentRequests, projectIdsByKey, type DemoDeployment } from './deployment-timeline';

type FetchLike = (path: string, init: RequestInit) => Response | Promise<Response>;

export class DemoDeploymentError extends Error {}

/**
 * Records the world's deployment timeline the way a CD pipeline would: one `PUT
 * /api/telemetry/deployments/{deployment_id}` per deployment with the demo owner's token
 * (recording deployments needs the owner role). A few dozen small requests, sent in order.
 */
export async function seedDemoDeployments(opts: {
  app: { request: FetchLike };
  credentials: DemoCredentials;
  deployments: readonly DemoDeployment[];
}): Promise<number> {
  const requests = deploymentRequests(opts.deployments, projectIdsByKey(opts.credentials.projects));
  for (const { deployment_id, body } of requests) {
    const res = await opts.app.request(
      `/api/telemetry/deployments/${encodeURIComponent(deployment_id)}`,
      {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${opts.credentials.account_token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      },
    );
    // 200 both when stored now and when already stored with the same body (a re-run).
    if (res.status !== 200)
      throw new DemoDeploymentError(
        `demo deployment ${deployment_id}: PUT gave ${res.status} ${await res.text()}`,
      );
  }
  return requests.length;
}
