import { TelemetryText } from '../../ui/telemetry-text';
import { Link } from '@tanstack/react-router';
import type { InvestigationTrace } from '../../api/queries/investigations';
import { formatDuration } from '../../lib/format-duration';
import { formatUtcDateTime } from '../../lib/format-time';
import styles from './evidence.module.css';

/** A trace summary: counts stay whole even when its lists were cut. */
export function TraceEvidence({ trace }: { trace: InvestigationTrace }) {
  const facts: [string, string][] = [
    ['Root span', trace.root_span?.name ?? (trace.root_span_missing ? 'not received' : '—')],
    ['Started', formatUtcDateTime(trace.started_at, { ms: true })],
    ['Duration', formatDuration(trace.duration_ms)],
    ['Spans', trace.span_count.toLocaleString('en-US')],
    ['Error spans', trace.error_span_count.toLocaleString('en-US')],
    ['Services', trace.services.map((s) => s.service_name).join(', ') || '—'],
    ['Releases', trace.releases.join(', ') || '—'],
    ['Environments', trace.environments.join(', ') || '—'],
  ];
  if (trace.orphan_span_count > 0)
    facts.push(['Parent not received', trace.orphan_span_count.toLocaleString('en-US')]);
  return (
    <>
      <p>
        <code className={styles.mono}>{trace.trace_id}</code>{' '}
        <Link to="/traces/$traceId" params={{ traceId: trace.trace_id }} className={styles.link}>
          Open trace
        </Link>
      </p>
      <dl className={styles.facts}>
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <TelemetryText text={value} />
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
