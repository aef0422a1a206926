import { BackupError } from './backup-error';

/**
 * PostgreSQL deployments back up with PostgreSQL's own tools, not this command: state and
 * telemetry share one database, so one `pg_dump` (a single snapshot) is consistent across
 * both, and operators of a database server usually run base backups with WAL archiving
 * (pg_basebackup) for point-in-time recovery anyway. pg_dump must be of the server's major
 * version or newer, which this command cannot promise, so it does not shell out.
 */
export function postgresBackupError(into: string): BackupError {
  return new BackupError(
    'With DATABASE_URL the stores are in PostgreSQL, which this command does not copy.',
    `Use PostgreSQL's own tools, e.g. pg_dump --format=custom --file=${into}/lookout.dump "$DATABASE_URL" (one consistent snapshot of state and telemetry), or pg_basebackup with WAL archiving.`,
  );
}

export function postgresRestoreError(from: string): BackupError {
  return new BackupError(
    'With DATABASE_URL the stores are in PostgreSQL, which this command does not restore.',
    `Stop the services, create an empty database, run pg_restore --no-owner --dbname="$DATABASE_URL" ${from}/lookout.dump, then npm run service -- migrate.`,
  );
}
