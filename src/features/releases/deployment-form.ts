/**
 * The "Record deployment" form's rules, pure: the suggested id, the service's id and commit
 * rules (checked before sending), UTC datetime inputs, and the request body.
 */

import { DEPLOYMENT_ID } from './release-search';

/**
 * The service's `deployment_id` rule (OpenAPI, `PUT /api/telemetry/deployments/{deployment_id}`):
 * 1 to 128 ASCII letters, digits, `.`, `_`, `~`, `-`, starting with a letter or digit.
 */
export const DEPLOYMENT_ID_RULE = DEPLOYMENT_ID;
export const DEPLOYMENT_ID_MAX = 128;
/** `commit_sha`: 7 to 64 hex characters. */
export const COMMIT_SHA_RULE = /^[0-9a-fA-F]{7,64}$/;

export type DeploymentStatusValue = 'succeeded' | 'failed';

/** The row a deployment is recorded for: fixed by the release page, not edited in the form. */
export type DeploymentTarget = {
  project_id: string;
  release: string;
  environment: string;
  service_name: string;
};

/** What the form holds, as typed (datetime values as `YYYY-MM-DDTHH:mm`, read as UTC). */
export type DeploymentFormValues = {
  deploymentId: string;
  status: DeploymentStatusValue;
  startedAt: string;
  finishedAt: string;
  commitSha: string;
};

/** The PUT body, field for field as the service takes it. */
export type DeploymentBody = DeploymentTarget & {
  status: DeploymentStatusValue;
  started_at: string;
  finished_at: string;
  commit_sha?: string;
};

export type DeploymentFormErrors = Partial<Record<keyof DeploymentFormValues, string>>;

export type DeploymentFormResult =
  | { ok: true; deploymentId: string; body: DeploymentBody }
  | { ok: false; errors: DeploymentFormErrors };

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `yyyymmddhhmm` of an instant, in UTC. */
export function compactUtcMinute(at: Date): string {
  return (
    pad(at.getUTCFullYear(), 4) +
    pad(at.getUTCMonth() + 1) +
    pad(at.getUTCDate()) +
    pad(at.getUTCHours()) +
    pad(at.getUTCMinutes())
  );
}

/** Characters the id rule does not allow become `-`; runs of `-` collapse; ends are trimmed. */
function idPart(value: string): string {
  return value
    .replace(/[^A-Za-z0-9._~-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[-._~]+$/, '');
}

/**
 * A suggested id: `<service>-<environment>-<release>-<yyyymmddhhmm>` (UTC), fitted to the id
 * rule. A release that repeats the service (`checkout-api@2.14.0`) is written once
 * (`checkout-api-production-2.14.0-202611221930`). Always a valid id; the time suffix is kept
 * when the rest has to be shortened.
 */
export function suggestDeploymentId(
  target: Pick<DeploymentTarget, 'release' | 'environment' | 'service_name'>,
  at: Date,
): string {
  const prefix = `${target.service_name}@`;
  const release = target.release.startsWith(prefix)
    ? target.release.slice(prefix.length)
    : target.release;
  const suffix = compactUtcMinute(at);
  const head = [target.service_name, target.environment, release]
    .map(idPart)
    .filter((p) => p !== '')
    .join('-');
  const room = DEPLOYMENT_ID_MAX - suffix.length - 1;
  const trimmed = idPart(head.slice(0, room));
  return trimmed === '' ? `deploy-${suffix}` : `${trimmed}-${suffix}`;
}

/** Why an id does not pass the service's rule, in words; null when it does. */
export function deploymentIdProblem(value: string): string | null {
  if (value === '') return 'Enter a deployment id.';
  if (value.length > DEPLOYMENT_ID_MAX)
    return `Use at most ${DEPLOYMENT_ID_MAX} characters (this one has ${value.length}).`;
  if (!/^[A-Za-z0-9]/.test(value)) return 'Start with a letter or a digit.';
  if (!DEPLOYMENT_ID_RULE.test(value))
    return 'Use only letters, digits, ".", "_", "~" and "-" (no spaces, "@" or "/").';
  return null;
}

/** An instant as a `datetime-local` value in UTC, to the minute: `2026-11-22T19:30`. */
export function toUtcInputValue(at: Date): string {
  return `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}T${pad(
    at.getUTCHours(),
  )}:${pad(at.getUTCMinutes())}`;
}

const INPUT_VALUE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * A `datetime-local` value read as UTC, as RFC3339 (`2026-11-22T19:30:00.000Z`); null when it
 * is empty or not a real date and time (a 31 February, a 24th hour).
 */
export function fromUtcInputValue(value: string): string | null {
  const m = INPUT_VALUE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', ms = '0'] = m;
  const parts = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [year, month, day, hour, minute, second] = parts;
  const millis = Number(ms.padEnd(3, '0'));
  const at = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const date = new Date(at);
  const real =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return real ? date.toISOString() : null;
}

/** The form's first values for a row: a fresh id, succeeded, started 10 minutes ago, finished now. */
export function initialDeploymentValues(
  target: Pick<DeploymentTarget, 'release' | 'environment' | 'service_name'>,
  now: Date,
): DeploymentFormValues {
  return {
    deploymentId: suggestDeploymentId(target, now),
    status: 'succeeded',
    startedAt: toUtcInputValue(new Date(now.getTime() - 10 * 60_000)),
    finishedAt: toUtcInputValue(now),
    commitSha: '',
  };
}

/**
 * Checks the values with the service's rules and builds the PUT body, or says what to fix,
 * field by field. The commit is trimmed and sent as typed (the service stores lower case).
 */
export function buildDeploymentRequest(
  target: DeploymentTarget,
  values: DeploymentFormValues,
): DeploymentFormResult {
  const errors: DeploymentFormErrors = {};
  const deploymentId = values.deploymentId.trim();
  const idProblem = deploymentIdProblem(deploymentId);
  if (idProblem !== null) errors.deploymentId = idProblem;

  const startedAt = fromUtcInputValue(values.startedAt);
  const finishedAt = fromUtcInputValue(values.finishedAt);
  if (startedAt === null) errors.startedAt = 'Enter the date and time it started (UTC).';
  if (finishedAt === null) errors.finishedAt = 'Enter the date and time it finished (UTC).';
  if (startedAt !== null && finishedAt !== null && Date.parse(finishedAt) < Date.parse(startedAt))
    errors.finishedAt = 'It cannot finish before it started: make "Finished at" later.';

  const commitSha = values.commitSha.trim();
  if (commitSha !== '' && !COMMIT_SHA_RULE.test(commitSha))
    errors.commitSha = `A commit sha is 7 to 64 hex characters (0–9, a–f)${
      commitSha.length < 7 || commitSha.length > 64 ? `; this one has ${commitSha.length}` : ''
    }.`;

  if (Object.keys(errors).length > 0 || startedAt === null || finishedAt === null)
    return { ok: false, errors };
  return {
    ok: true,
    deploymentId,
    body: {
      project_id: target.project_id,
      release: target.release,
      environment: target.environment,
      service_name: target.service_name,
      status: values.status,
      started_at: startedAt,
      finished_at: finishedAt,
      ...(commitSha === '' ? {} : { commit_sha: commitSha }),
    },
  };
}

/** A stored deployment's values back in the form (to re-send the original after a conflict). */
export function valuesOfDeployment(d: {
  deployment_id: string;
  status: DeploymentStatusValue;
  started_at: string;
  finished_at: string;
  commit_sha: string | null;
}): DeploymentFormValues {
  return {
    deploymentId: d.deployment_id,
    status: d.status,
    startedAt: toUtcInputValueExact(d.started_at),
    finishedAt: toUtcInputValueExact(d.finished_at),
    commitSha: d.commit_sha ?? '',
  };
}

/**
 * An RFC3339 instant as a `datetime-local` value in UTC, keeping seconds and milliseconds
 * when it has them, so the value sent back is the same instant. Empty when unreadable.
 */
export function toUtcInputValueExact(iso: string): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  const date = new Date(at);
  const minute = toUtcInputValue(date);
  const s = date.getUTCSeconds();
  const ms = date.getUTCMilliseconds();
  if (s === 0 && ms === 0) return minute;
  return ms === 0 ? `${minute}:${pad(s)}` : `${minute}:${pad(s)}.${pad(ms, 3)}`;
}

/** Who may record deployments: owners of the project's organization only (else `403`). */
export function canRecordDeployments(role: string | undefined): boolean {
  return role === 'owner';
}
