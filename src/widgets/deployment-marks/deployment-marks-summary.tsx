import { Popover } from 'radix-ui';
import { ApiError, failureTitle } from '../../api/errors';
import { AlertIcon } from '../../ui/icons';
import { PopoverPanel } from '../../ui/popover-panel';
import { DeploymentList, MarkerIcon } from './deployment-marker';
import type { DeploymentMarker } from './deployment-markers';
import styles from './deployment-marks-summary.module.css';

/**
 * A compact line for charts with little room: how many deployments the chart marks, as a
 * button that opens them as links (the way in for the keyboard), or why there are no marks.
 */
export function DeploymentMarksSummary({
  label,
  markers,
  complete,
  error,
  isPending,
}: {
  /** The list's accessible name, e.g. "Deployments on the trace chart". */
  label: string;
  markers: DeploymentMarker[];
  complete: boolean;
  error: Error | null;
  isPending: boolean;
}) {
  if (error !== null) {
    return (
      <span className={styles.failed} role="alert">
        <AlertIcon size={12} />
        Deployment marks missing: {error instanceof ApiError ? failureTitle(error) : error.message}.
        Reload the page to try again.
      </span>
    );
  }
  if (isPending) return null;
  if (markers.length === 0) return <span className={styles.none}>No deployments in range</span>;
  const failed = markers.filter((m) => m.failed).length;
  const count = `${markers.length.toLocaleString('en-US')} ${markers.length === 1 ? 'deployment' : 'deployments'}`;
  return (
    <Popover.Root>
      <Popover.Trigger className={styles.trigger}>
        <MarkerIcon failed={failed > 0} />
        {count}
        {failed > 0 ? `, ${failed.toLocaleString('en-US')} failed` : ''}
      </Popover.Trigger>
      <PopoverPanel label={label} className={styles.panel}>
        <DeploymentList label={label} markers={markers} complete={complete} />
      </PopoverPanel>
    </Popover.Root>
  );
}
