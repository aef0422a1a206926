/**
 * A backup or restore that cannot go on: what happened and what the operator should do,
 * both in plain words. The CLI prints the two lines and exits with status 2.
 */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly next: string,
  ) {
    super(message);
    this.name = 'BackupError';
  }
}
