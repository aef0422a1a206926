import type {
  AlertIncidentRecord,
  DeliveryRecord,
  WebhookRecord,
} from '../core/store/state/alerts';
import { newId } from '../domain/secrets';
import { incidentView } from '../views/alert-incident-view';
import { iso } from '../views/telemetry-views';

/** The body of an alert delivery: the incident as the incidents route shows it. */
export function incidentPayload(
  event: 'alert.firing' | 'alert.resolved',
  i: AlertIncidentRecord,
): string {
  return JSON.stringify({
    event,
    incident: incidentView(i),
  });
}

/** A pending delivery of an incident change, due now. */
export function incidentDelivery(
  webhookId: string,
  event: 'alert.firing' | 'alert.resolved',
  incident: AlertIncidentRecord,
  now: number,
): DeliveryRecord {
  return {
    id: newId(),
    webhookId,
    incidentId: incident.id,
    event,
    payload: incidentPayload(event, incident),
    createdAt: now,
    state: 'pending',
    attempts: [],
    nextAttemptAt: now,
  };
}

/** A pending `test` delivery, due now. */
export function testDelivery(webhook: WebhookRecord, now: number): DeliveryRecord {
  return {
    id: newId(),
    webhookId: webhook.id,
    incidentId: null,
    event: 'test',
    payload: JSON.stringify({
      event: 'test',
      webhook: { id: webhook.id, name: webhook.name },
      sent_at: iso(now),
    }),
    createdAt: now,
    state: 'pending',
    attempts: [],
    nextAttemptAt: now,
  };
}
