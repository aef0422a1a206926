import { BackupError } from './backup-error';

/**
 * With CLICKHOUSE_URL telemetry lives on a ClickHouse server (or cluster), whose files this
 * command cannot reach: its operators back it up with the server's own means, `BACKUP
 * DATABASE … TO S3(…)`/`TO Disk('backups', …)` (a disk the server's configuration allows in
 * `backups.allowed_disk`) or clickhouse-backup, and restore with `RESTORE DATABASE … FROM`.
 * The consistency rule of backup-store.ts holds if the ClickHouse backup starts after the
 * state copy finished; after restoring both, set `ingest_ledger.sweep_pending = 1` in the
 * state store and the first start removes the batches the state never committed. This
 * command refuses rather than write a copy that looks whole without the telemetry.
 */
export function clickhouseServerBackupError(): BackupError {
  return new BackupError(
    'With CLICKHOUSE_URL telemetry is on a ClickHouse server, which this command does not copy; nothing was written.',
    "Stop the service and copy LOOKOUT_DATA_DIR (the state), then back up the server's database with BACKUP DATABASE … TO S3(…)/Disk(…) or clickhouse-backup; see docs/deployment.md, Backups.",
  );
}

export function clickhouseServerRestoreError(): BackupError {
  return new BackupError(
    'With CLICKHOUSE_URL telemetry is on a ClickHouse server; this backup holds the embedded engine’s telemetry, which this command restores only into the data directory.',
    'Restore with LOOKOUT_TELEMETRY=clickhouse and no CLICKHOUSE_URL (the embedded engine), or restore the server from its own backup (RESTORE DATABASE … FROM …).',
  );
}
