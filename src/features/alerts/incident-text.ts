import type { AlertIncident, AlertOp } from '../../api/queries/alerts';

const format = (v: number) =>
  Number.isInteger(v)
    ? v.toLocaleString('en')
    : v.toLocaleString('en', { maximumFractionDigits: 2 });

/** `42 > 10` / `3 < 5`: the value that fired the incident against its threshold. */
export function valueAgainstThreshold(
  value: number,
  threshold: number | null,
  op: AlertOp,
): string {
  if (threshold === null) return format(value);
  return `${format(value)} ${op === 'below' ? '<' : '>'} ${format(threshold)}`;
}

/** How long an incident fired (or has been firing, against `now`): `12 min`, `3 h 5 min`. */
export function incidentDuration(
  incident: Pick<AlertIncident, 'started_at' | 'resolved_at'>,
  now: number,
): string {
  const end = incident.resolved_at === null ? now : Date.parse(incident.resolved_at);
  const minutes = Math.max(0, Math.round((end - Date.parse(incident.started_at)) / 60_000));
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return `${Math.round(hours / 24)} days`;
}

/** The incident's window in words: `15 min`, `1 h`, `1 day`. */
export function windowLength(incident: Pick<AlertIncident, 'window_start' | 'window_end'>): string {
  const minutes = Math.round(
    (Date.parse(incident.window_end) - Date.parse(incident.window_start)) / 60_000,
  );
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  return `${minutes} min`;
}
