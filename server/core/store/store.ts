import type { AccountsStore } from './state/accounts';
import type { AlertsStore } from './state/alerts';
import type { CredentialsStore } from './state/credentials';
import type { DeploymentsStore } from './state/deployments';
import type { IdempotencyStore } from './state/idempotency';
import type { IssuesStore } from './state/issues';
import type { OwnershipStore } from './state/ownership';
import type { ProjectsStore } from './state/projects';
import type { SupportStore } from './state/support';
import type { ThrottleStore } from './state/throttle';
import type { ToolConnectionsStore } from './state/tool-connections';
import type { UsageStore } from './state/usage';
import type { ActionsStore } from './telemetry/actions';
import type { IngestStore } from './telemetry/ingest';
import type { InvestigationsStore } from './telemetry/investigations';
import type { LogsStore } from './telemetry/logs';
import type { MetricsStore } from './telemetry/metrics';
import type { OccurrencesStore } from './telemetry/occurrences';
import type { ReleasesStore } from './telemetry/releases';
import type { TracesStore } from './telemetry/traces';
import type { VolumeStore } from './telemetry/volume';

/**
 * The state tier: who may do what, and what people decided. Small, transactional, read and
 * written one row at a time: SQLite by default, PostgreSQL with `DATABASE_URL`.
 */
export interface StateStore {
  accounts: AccountsStore;
  credentials: CredentialsStore;
  projects: ProjectsStore;
  idempotency: IdempotencyStore;
  /** Issue groups and their triage (status, priority, assignee, rules, activity). */
  issues: IssuesStore;
  ownership: OwnershipStore;
  deployments: DeploymentsStore;
  /** Support tickets and their attached context. */
  support: SupportStore;
  usage: UsageStore;
  /** Failed sign-in attempts per account and client address (throttling). */
  throttle: ThrottleStore;
  /** Tool connections (delegated, read-only credentials) and their use counts. */
  toolConnections: ToolConnectionsStore;
  /** Alert rules, incidents, inbox notifications, webhooks and deliveries, issue snoozes. */
  alerts: AlertsStore;
}

/**
 * The telemetry tier: what SDKs and collectors send, written in batches and read by ranges,
 * counts and rollups. Routes and ingestion reach it only through these ports, so it can move
 * to another engine without them noticing.
 */
export interface TelemetryStore {
  /** Ingest writes: a batch of items in one transaction, under the quota. */
  ingest: IngestStore;
  logs: LogsStore;
  /** The occurrences of issue groups. */
  occurrences: OccurrencesStore;
  traces: TracesStore;
  releases: ReleasesStore;
  actions: ActionsStore;
  metrics: MetricsStore;
  volume: VolumeStore;
  /** Reads of the investigation bundles and correction verification. */
  investigations: InvestigationsStore;
}

/**
 * Everything the service asks of storage: both tiers (adapters in server/store/). Methods are
 * async so that a PostgreSQL adapter can implement the same ports; SQLite answers
 * synchronously inside.
 */
export interface Store extends StateStore, TelemetryStore {
  /** Closes storage; resolves once background work on the files has stopped. */
  close(): Promise<void>;
}
