import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { deploymentQueries } from '../../api/queries/releases';
import { useStableValue } from '../../lib/use-stable-value';
import {
  deploymentMarkers,
  deploymentReadOf,
  deploymentsInScope,
  type DeploymentMarker,
  type DeploymentRange,
  type DeploymentScope,
} from './deployment-markers';

export type ChartDeployments = {
  /** The scope's deployments on the chart's axis, oldest first (empty until read). */
  markers: DeploymentMarker[];
  /** False when the range held more deployments than were read (the newest are marked). */
  complete: boolean;
  /** Reading them failed: the chart has no marks, and must say so. */
  error: Error | null;
  isPending: boolean;
};

const NO_MARKERS: DeploymentMarker[] = [];

/**
 * The deployments a time chart marks: read once for its range (and its one project, if it has
 * one) through the shared deployment query, narrowed to its scope, placed on its axis. Not a
 * suspense read: the chart draws at once and the marks join it when they arrive.
 */
export function useChartDeployments(
  range: DeploymentRange,
  scope: DeploymentScope,
  domain: readonly [number, number] | null,
  /** False where marks do not fit the chart: nothing is read and nothing is marked. */
  enabled = true,
): ChartDeployments {
  const stableScope = useStableValue(scope);
  const query = useQuery({
    ...deploymentQueries.range(deploymentReadOf(range, stableScope)),
    enabled,
  });
  const from = domain?.[0];
  const to = domain?.[1];
  const markers = useMemo(
    () =>
      enabled && query.data && from !== undefined && to !== undefined
        ? deploymentMarkers(deploymentsInScope(query.data.deployments, stableScope), [from, to])
        : NO_MARKERS,
    [enabled, query.data, stableScope, from, to],
  );
  return {
    markers,
    complete: query.data?.complete ?? true,
    error: enabled ? query.error : null,
    isPending: enabled && query.isPending,
  };
}
