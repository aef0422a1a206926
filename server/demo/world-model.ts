/**
 * The demo world's fixed cast: an online shop with a browser storefront, a checkout backend
 * of several services and two mobile apps, each with its SDK and its releases over the two
 * weeks the demo covers. Generators read this; nothing here is random.
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
/** How far back the seeded telemetry goes from "now". */
export const WINDOW_DAYS = 14;

export type ProjectKey = 'web' | 'api' | 'mobile';
export const PROJECT_KEYS: readonly ProjectKey[] = ['web', 'api', 'mobile'];

/** The names `demo-accounts.ts` gives the projects; the seeder finds their ingest keys by name. */
export const PROJECT_NAMES: Record<ProjectKey, string> = {
  web: 'Storefront Web',
  api: 'Checkout API',
  mobile: 'Mobile App',
};

export const ENVIRONMENTS = ['production', 'staging'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export type Sdk = { name: string; version: string };

export type ServiceName =
  | 'storefront-web'
  | 'checkout-api'
  | 'payments'
  | 'inventory'
  | 'pricing'
  | 'postgres'
  | 'redis'
  | 'shop-ios'
  | 'shop-android';

/** Decides stack trace format, breadcrumbs and attributes of what a service reports. */
export type Platform = 'browser' | 'node' | 'python' | 'jvm' | 'ios' | 'android' | 'datastore';

/**
 * One release of a service. Production gets it `daysAgo` days before today's UTC midnight at
 * `hourUtc`; staging `stagingLeadHours` earlier. `failedAttempts` production deployments fail
 * before the one that succeeds.
 */
export type ReleasePlan = {
  version: string;
  daysAgo: number;
  hourUtc: number;
  stagingLeadHours: number;
  failedAttempts?: number;
};

export type ServiceDef = {
  name: ServiceName;
  project: ProjectKey;
  platform: Platform;
  sdk: Sdk;
  /** `release` strings are `<prefix>@<version>`. */
  releasePrefix: string;
  releases: readonly ReleasePlan[];
  /** App-store releases are adopted gradually: old versions keep reporting (hours to ~63%). */
  adoptionHours?: number;
};

const sdks = {
  javascript: { name: 'lookout.javascript', version: '2.3.0' },
  node: { name: 'lookout.node', version: '1.4.0' },
  python: { name: 'lookout.python', version: '1.9.2' },
  java: { name: 'lookout.java', version: '4.1.0' },
  cocoa: { name: 'lookout.cocoa', version: '8.2.0' },
  android: { name: 'lookout.android', version: '7.5.1' },
} satisfies Record<string, Sdk>;

/** Databases and caches appear only as spans of their callers; their release is fixed. */
const infrastructure = (version: string): readonly ReleasePlan[] => [
  { version, daysAgo: 90, hourUtc: 3, stagingLeadHours: 0 },
];

export const SERVICES: Record<ServiceName, ServiceDef> = {
  'storefront-web': {
    name: 'storefront-web',
    project: 'web',
    platform: 'browser',
    sdk: sdks.javascript,
    releasePrefix: 'web',
    releases: [
      { version: '1.8.0', daysAgo: 19, hourUtc: 10, stagingLeadHours: 22 },
      { version: '1.8.1', daysAgo: 10, hourUtc: 14.5, stagingLeadHours: 20 },
      { version: '1.8.2', daysAgo: 3, hourUtc: 9.25, stagingLeadHours: 18 },
    ],
  },
  'checkout-api': {
    name: 'checkout-api',
    project: 'api',
    platform: 'node',
    sdk: sdks.node,
    releasePrefix: 'checkout-api',
    releases: [
      { version: '2.13.0', daysAgo: 16, hourUtc: 11, stagingLeadHours: 26 },
      // The bad release: a discount refactor that throws on carts without a currency.
      { version: '2.14.0', daysAgo: 5, hourUtc: 13.67, stagingLeadHours: 20 },
      // The hotfix, the next morning.
      { version: '2.14.1', daysAgo: 4, hourUtc: 9.33, stagingLeadHours: 1.5 },
    ],
  },
  payments: {
    name: 'payments',
    project: 'api',
    platform: 'python',
    sdk: sdks.python,
    releasePrefix: 'payments',
    releases: [
      { version: '3.2.0', daysAgo: 22, hourUtc: 15, stagingLeadHours: 24 },
      { version: '3.2.1', daysAgo: 8, hourUtc: 10.75, stagingLeadHours: 5 },
    ],
  },
  inventory: {
    name: 'inventory',
    project: 'api',
    platform: 'jvm',
    sdk: sdks.java,
    releasePrefix: 'inventory',
    releases: [
      { version: '1.21.0', daysAgo: 25, hourUtc: 12, stagingLeadHours: 30 },
      // Route-named spans and one batched stock query instead of one per cart line.
      { version: '1.22.0', daysAgo: 6, hourUtc: 16.17, stagingLeadHours: 24 },
    ],
  },
  pricing: {
    name: 'pricing',
    project: 'api',
    platform: 'node',
    sdk: sdks.node,
    releasePrefix: 'pricing',
    releases: [
      { version: '0.9.4', daysAgo: 30, hourUtc: 11, stagingLeadHours: 20 },
      { version: '0.10.0', daysAgo: 2, hourUtc: 11.5, stagingLeadHours: 22, failedAttempts: 1 },
    ],
  },
  postgres: {
    name: 'postgres',
    project: 'api',
    platform: 'datastore',
    sdk: sdks.node,
    releasePrefix: 'postgres',
    releases: infrastructure('15.6'),
  },
  redis: {
    name: 'redis',
    project: 'api',
    platform: 'datastore',
    sdk: sdks.node,
    releasePrefix: 'redis',
    releases: infrastructure('7.2.4'),
  },
  'shop-ios': {
    name: 'shop-ios',
    project: 'mobile',
    platform: 'ios',
    sdk: sdks.cocoa,
    releasePrefix: 'shop-ios',
    adoptionHours: 60,
    releases: [
      { version: '5.3.0+498', daysAgo: 24, hourUtc: 17, stagingLeadHours: 72 },
      { version: '5.4.0+512', daysAgo: 7, hourUtc: 17, stagingLeadHours: 96 },
    ],
  },
  'shop-android': {
    name: 'shop-android',
    project: 'mobile',
    platform: 'android',
    sdk: sdks.android,
    releasePrefix: 'shop-android',
    adoptionHours: 48,
    releases: [
      { version: '5.3.0+5031', daysAgo: 24, hourUtc: 17, stagingLeadHours: 72 },
      { version: '5.4.0+5040', daysAgo: 7, hourUtc: 17, stagingLeadHours: 96 },
      // Hotfix for the cart NullPointerException of 5.4.0.
      { version: '5.4.1+5043', daysAgo: 2, hourUtc: 12, stagingLeadHours: 6 },
    ],
  },
};

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

export const releaseName = (service: ServiceName, version: string): string =>
  `${SERVICES[service].releasePrefix}@${version}`;

/** The release whose error spike the demo shows, and the one that fixes it. */
export const BAD_RELEASE = {
  service: 'checkout-api' as const,
  release: 'checkout-api@2.14.0',
  fixedBy: 'checkout-api@2.14.1',
};

/** A value per project key, from the projects `demo-accounts.ts` created (matched by name). */
export function byProjectKey<P extends { name: string }, T>(
  projects: readonly P[],
  pick: (project: P) => T,
): Record<ProjectKey, T> {
  const out = {} as Record<ProjectKey, T>;
  for (const key of PROJECT_KEYS) {
    const project = projects.find((p) => p.name === PROJECT_NAMES[key]);
    if (!project) throw new Error(`the demo project "${PROJECT_NAMES[key]}" is missing`);
    out[key] = pick(project);
  }
  return out;
}

/** The world's time span: two weeks up to `now`. */
export type Window = { from: number; to: number };
export const worldWindow = (now: number): Window => ({ from: now - WINDOW_DAYS * DAY_MS, to: now });
