import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import type { ComponentType } from 'react';
import {
  eventKey,
  eventSeverity,
  eventSummary,
  eventTime,
  eventTypeLabel,
  type ProjectFilter,
} from '../../live/live-events';
import type { LiveEventType } from '../../live/live-message';
import { useLiveEvents } from '../../live/live-store';
import { formatUtcDateTime, formatUtcTime } from '../../lib/format-time';
import { ActionIcon, IssueIcon, LogIcon, SpanIcon } from '../../ui/icons';
import styles from './live-indicator.module.css';

const typeIcons: Record<LiveEventType, ComponentType<{ className?: string }>> = {
  native_log: LogIcon,
  native_issue: IssueIcon,
  native_trace_span: SpanIcon,
  native_action: ActionIcon,
};

/**
 * The latest events of the scope (mounted only while the popover is open, so a busy feed
 * costs nothing when nobody looks). Everything shown comes from the service and is rendered
 * as text (React escapes it); long text is cut by CSS, the full text is in the row's title.
 */
export function LiveEventList({
  projectIds,
  limit,
  projectNames,
  fresh,
}: {
  projectIds: ProjectFilter;
  limit: number;
  projectNames: ReadonlyMap<string, string>;
  /** Keys of the events that were new when the list was opened. */
  fresh: ReadonlySet<string>;
}) {
  const events = useLiveEvents({ projectIds, limit });
  if (events.length === 0) {
    return (
      <p className={styles.empty}>
        Nothing new in this scope yet. Logs, issues, spans and actions appear here as they are
        ingested.
      </p>
    );
  }
  return (
    <ol className={styles.list} aria-label="Latest events">
      {events.map((event) => {
        const key = eventKey(event);
        const Icon = typeIcons[event.type];
        const summary = eventSummary(event);
        const severity = eventSeverity(event);
        const time = eventTime(event);
        const project = projectNames.get(event.data.project_id) ?? 'Unknown project';
        const isFresh = fresh.has(key);
        return (
          <li key={key} className={styles.row} data-fresh={isFresh || undefined}>
            <span className={styles.typeIcon} data-type={event.type} aria-hidden="true">
              <Icon />
            </span>
            <div className={styles.rowBody}>
              {isFresh && <span className="visually-hidden">New</span>}
              <p className={styles.summary} title={markBidiControls(summary)}>
                <TelemetryText text={summary} />
              </p>
              <p className={styles.meta}>
                <span>{eventTypeLabel(event.type)}</span>
                {severity && (
                  <span className={styles.severity} data-severity={severity}>
                    {severity}
                  </span>
                )}
                <span className={styles.project} title={project}>
                  {project}
                </span>
              </p>
            </div>
            {time && (
              <time className={styles.time} dateTime={time} title={formatUtcDateTime(time)}>
                {formatUtcTime(time)}
              </time>
            )}
          </li>
        );
      })}
    </ol>
  );
}
