import type { SVGProps } from 'react';

/** Small line icons (16px grid). Decorative unless given a title by the caller's text. */
type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Icon({ size = 16, children, ...props }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const FolderIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2 4.5A1.5 1.5 0 0 1 3.5 3h2.6l1.4 1.5h5A1.5 1.5 0 0 1 14 6v5.5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 11.5z" />
  </Icon>
);

export const ClockIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="8" r="5.75" />
    <path d="M8 4.75V8l2.25 1.5" />
  </Icon>
);

export const ChevronDownIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m4.5 6.25 3.5 3.5 3.5-3.5" />
  </Icon>
);

export const ArrowUpIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 12.5v-9M4.5 7 8 3.5 11.5 7" />
  </Icon>
);

export const ArrowDownIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 3.5v9M4.5 9 8 12.5 11.5 9" />
  </Icon>
);

/** Bars narrowing downwards: the funnels entry. */
export const FunnelIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 3.5h11M4.5 7h7M6.5 10.5h3" />
  </Icon>
);

/** A small bar chart: the analytics entry. */
export const AnalyticsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 13h10M4.75 10.5v-3M8 10.5V4M11.25 10.5V6.5" />
  </Icon>
);

/** A gauge: the usage entry. */
export const UsageIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.75 11.5a5.25 5.25 0 1 1 10.5 0" />
    <path d="m8 11.5 2.5-3.25" />
  </Icon>
);

/** A card: the plan entry. */
export const PlanIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2" y="3.5" width="12" height="9" rx="1.5" />
    <path d="M2 6.5h12M4.5 10h3" />
  </Icon>
);

export const PlusIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 3.5v9M3.5 8h9" />
  </Icon>
);

export const KeyIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="5.5" cy="10.5" r="2.75" />
    <path d="m7.5 8.5 5-5M10.5 5.5l1.5 1.5M12 4l1 1" />
  </Icon>
);

export const CopyIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="5.25" y="5.25" width="8" height="8" rx="1.5" />
    <path d="M10.75 5.25V3.5a1 1 0 0 0-1-1h-6.25a1 1 0 0 0-1 1v6.25a1 1 0 0 0 1 1h1.75" />
  </Icon>
);

export const CheckIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m3.5 8.5 3 3 6-7" />
  </Icon>
);

export const CloseIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m4 4 8 8M12 4l-8 8" />
  </Icon>
);

export const AlertIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 2.25 14.25 13H1.75z" />
    <path d="M8 6.5v2.75M8 11.1v.15" />
  </Icon>
);

export const InfoIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="8" r="5.75" />
    <path d="M8 7.25v3.5M8 5.1v.15" />
  </Icon>
);

export const SearchIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="7" cy="7" r="4.25" />
    <path d="m10.25 10.25 3 3" />
  </Icon>
);

export const SignOutIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6.5 13.5h-3a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h3M10.5 11l3-3-3-3M13.25 8H6.5" />
  </Icon>
);

export const ShieldIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 1.75 13 3.5v4c0 3.1-2.2 5.6-5 6.75-2.8-1.15-5-3.65-5-6.75v-4z" />
    <path d="m5.75 8 1.5 1.5 3-3" />
  </Icon>
);

export const OfflineIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M1.75 6.25a9 9 0 0 1 12.5 0M4 8.75a5.75 5.75 0 0 1 8 0M6.25 11.25a2.5 2.5 0 0 1 3.5 0M2 2l12 12" />
  </Icon>
);

/** A log line (lines of text). */
export const LogIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 4h10M3 8h10M3 12h6" />
  </Icon>
);

/** An issue (an error event). */
export const IssueIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="8" r="5.75" />
    <path d="M8 5v3.5M8 10.85v.15" />
  </Icon>
);

/** A trace span (bars of a waterfall). */
export const SpanIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 4h6M5 8h6.5M8.5 12h5" />
  </Icon>
);

/** A trace (a root bar with nested child bars beneath it). */
export const TraceIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2 3.5h12M4.5 3.5V12.5M4.5 8h7M4.5 12.5h4.5" />
  </Icon>
);

/** A release (a tag). */
export const ReleaseIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 2.5h5.25L13.5 8.25 8.25 13.5 2.5 7.75z" />
    <circle cx="5.5" cy="5.5" r="1" />
  </Icon>
);

/** Metrics (a line over an axis). */
export const MetricIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2 2.5v11h12M4.5 10.5l3-3.5 2.25 2 3.75-4.5" />
  </Icon>
);

/** A product action (a pointer). */
export const ActionIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m4 3 8.5 4.25-3.75 1L7 12z" />
  </Icon>
);

/** The product mark (same drawing as the favicon). */
export const LookoutMark = ({ size = 20, ...props }: IconProps) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 32 32"
    aria-hidden="true"
    focusable="false"
    {...props}
  >
    <rect width="32" height="32" rx="7" fill="#4f46e5" />
    <circle cx="16" cy="16" r="7" fill="none" stroke="#fff" strokeWidth="3" />
    <circle cx="16" cy="16" r="2.5" fill="#fff" />
  </svg>
);

/** Notifications (a bell). */
export const BellIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 11.5V7a4 4 0 0 1 8 0v4.5l1 1H3z" />
    <path d="M6.5 14h3" />
  </Icon>
);
