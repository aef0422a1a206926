import type { ComponentType, SVGProps } from 'react';
import {
  AnalyticsIcon,
  BellIcon,
  FolderIcon,
  FunnelIcon,
  IssueIcon,
  KeyIcon,
  LogIcon,
  MetricIcon,
  PlanIcon,
  ReleaseIcon,
  TraceIcon,
  UsageIcon,
} from '../../ui/icons';

export type NavEntry = {
  to:
    | '/projects'
    | '/issues'
    | '/logs'
    | '/traces'
    | '/releases'
    | '/metrics'
    | '/alerts'
    | '/analytics'
    | '/analytics/funnels'
    | '/usage'
    | '/plan'
    | '/tool-connections';
  label: string;
  /** Marked as the current page only on its own path (a parent of another entry). */
  exact?: boolean;
  icon: ComponentType<SVGProps<SVGSVGElement> & { size?: number }>;
};

/**
 * The main navigation: one line per page that exists. A page is added here when it is built,
 * never before (no placeholders).
 */
export const navEntries: readonly NavEntry[] = [
  { to: '/projects', label: 'Projects', icon: FolderIcon },
  { to: '/issues', label: 'Issues', icon: IssueIcon },
  { to: '/logs', label: 'Logs', icon: LogIcon },
  { to: '/traces', label: 'Traces', icon: TraceIcon },
  { to: '/releases', label: 'Releases', icon: ReleaseIcon },
  { to: '/metrics', label: 'Metrics', icon: MetricIcon },
  { to: '/alerts', label: 'Alerts', icon: BellIcon },
  { to: '/analytics', label: 'Analytics', icon: AnalyticsIcon, exact: true },
  { to: '/analytics/funnels', label: 'Funnels', icon: FunnelIcon },
  { to: '/usage', label: 'Usage', icon: UsageIcon },
  { to: '/plan', label: 'Plan', icon: PlanIcon },
  { to: '/tool-connections', label: 'Tool connections', icon: KeyIcon },
];
