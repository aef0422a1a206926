import { TelemetryText } from '../../ui/telemetry-text';
import { formatUtcTime } from '../../lib/format-time';
import { valueText } from '../../lib/attribute-values';
import { Callout } from '../../ui/callout';
import styles from './breadcrumb-list.module.css';

type Crumb = {
  timestamp?: unknown;
  category?: unknown;
  type?: unknown;
  level?: unknown;
  message?: unknown;
  data?: unknown;
};

const text = (v: unknown): string | null =>
  v === undefined || v === null ? null : typeof v === 'string' ? v : valueText(v);

/**
 * What happened before the error, oldest first as the SDK recorded it. When part of the
 * history is missing (`breadcrumbs_truncated`) it says so above the list.
 */
export function BreadcrumbList({
  breadcrumbs,
  truncated,
}: {
  breadcrumbs: unknown[];
  truncated: boolean;
}) {
  const crumbs = breadcrumbs.map((b) =>
    typeof b === 'object' && b !== null ? (b as Crumb) : ({ message: b } as Crumb),
  );
  return (
    <>
      {truncated && (
        <Callout tone="warning" title="History truncated">
          Part of the breadcrumb history is missing: the SDK dropped older entries before the error
          was sent.
        </Callout>
      )}
      {crumbs.length === 0 ? (
        <p className={styles.muted}>No breadcrumbs were recorded.</p>
      ) : (
        <table className={styles.crumbTable} aria-label="Breadcrumbs">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Category</th>
              <th scope="col">Level</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {crumbs.map((c, i) => {
              const at = text(c.timestamp);
              const data = c.data !== undefined ? valueText(c.data) : null;
              return (
                <tr key={i}>
                  <td className={styles.crumbTime}>
                    {at ? formatUtcTime(at).replace(' UTC', '') : ''}
                  </td>
                  <td className={styles.crumbCat}>
                    <TelemetryText text={text(c.category) ?? text(c.type) ?? 'default'} />
                  </td>
                  <td className={styles.crumbLevel} data-level={text(c.level) ?? undefined}>
                    {text(c.level) ?? ''}
                  </td>
                  <td className={styles.crumbMsg}>
                    <TelemetryText text={text(c.message) ?? ''} />
                    {data && (
                      <span className={styles.crumbData}>
                        <TelemetryText text={data} />
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
