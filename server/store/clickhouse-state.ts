import type { IngestCommitStore } from '../core/store/state/ingest-commits';
import type { IssueSummaries } from '../core/store/state/issue-summaries';
import type { LogRulesStore } from '../core/store/state/log-rules';
import type { StateStore } from '../core/store/store';
import type { InvestigationsStore } from '../core/store/telemetry/investigations';
import type { OccurrencesStore } from '../core/store/telemetry/occurrences';
import type { ReleasesStore } from '../core/store/telemetry/releases';
import type { VolumeStore } from '../core/store/telemetry/volume';

/**
 * What telemetry in ClickHouse takes from the state store beside it (SQLite, or PostgreSQL
 * with DATABASE_URL; clickhouse-store.ts composes either the same way): the commit of each
 * journaled batch and the rollups that commit counts (release rows, volume, per-hour issue
 * counts), log triage rules and issue summaries, which the ClickHouse reads join in.
 */
export type StateBesideClickHouse = StateStore &
  StateRollups & {
    ingestCommits: IngestCommitStore;
    logRules: LogRulesStore;
    issueSummaries: IssueSummaries;
  };

/**
 * The rollups a state store keeps beside ClickHouse, counted by each batch's commit (release
 * rows, volume, per-hour issue counts), and its close: what every state store here offers.
 */
export type StateRollups = {
  occurrenceHours: Pick<OccurrencesStore, 'hours'>;
  releases: ReleasesStore;
  volume: VolumeStore;
  releaseRows: InvestigationsStore['releaseRows'];
  close(): Promise<void>;
};
