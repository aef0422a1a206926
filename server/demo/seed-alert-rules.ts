import type { DemoCredentials } from './demo-accounts';
import { PROJECT_NAMES } from './world-model';

type FetchLike = (path: string, init: RequestInit) => Response | Promise<Response>;

/**
 * Alert rules of the Checkout API project, created the way a person would (`POST
 * /api/alerts/rules` by the demo owner), chosen to fire and resolve on the live trickle
 * (`npm run demo -- --live`, 5 events/s): the trickle's rare "uncaught exception" critical
 * log of checkout-api (about one every ten minutes) fires the first and resolves it five
 * minutes later; an issue receiving a burst of events fires the second. Both notify the
 * owner's inbox (the bell); no webhook is set up (add one in the console to receive them).
 */
export const DEMO_ALERT_RULES = [
  {
    name: 'Checkout API crashed',
    kind: 'log',
    condition: {
      query: { severity: 'critical', service_name: 'checkout-api' },
      op: 'above',
      threshold: 0,
      window_minutes: 5,
    },
  },
  {
    name: 'Busy issue in Checkout API',
    kind: 'issue',
    condition: { event: 'event_count', threshold: 3, window_minutes: 10, filters: {} },
    resolve_threshold: 1,
  },
] as const;

export class DemoAlertRulesError extends Error {}

export async function seedDemoAlertRules(opts: {
  app: { request: FetchLike };
  credentials: DemoCredentials;
  ownerAccountId: string;
}): Promise<number> {
  const project = opts.credentials.projects.find((p) => p.name === PROJECT_NAMES.api);
  if (!project) throw new DemoAlertRulesError(`demo alerts: no project ${PROJECT_NAMES.api}`);
  for (const rule of DEMO_ALERT_RULES) {
    const res = await opts.app.request('/api/alerts/rules', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${opts.credentials.account_token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        ...rule,
        project_id: project.id,
        notify: { inbox: { user_id: opts.ownerAccountId }, webhook_ids: [] },
      }),
    });
    if (res.status !== 200)
      throw new DemoAlertRulesError(`demo alerts: POST gave ${res.status} ${await res.text()}`);
  }
  return DEMO_ALERT_RULES.length;
}
