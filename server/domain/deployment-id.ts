/**
 * `deployment_id` is chosen by the caller (spec "Conventions") and is the deployment's retry
 * key. It travels as a path segment, so it is kept to characters that need no encoding:
 * 1 to 128 ASCII letters, digits, `.`, `_`, `~` and `-`, starting with a letter or digit (so
 * it is never `.` or `..`, which URL handling would resolve away). Compared as sent
 * (case-sensitive), per project.
 */
export const DEPLOYMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;
export const DEPLOYMENT_ID_MAX = 128;

export const isDeploymentId = (value: string): boolean => DEPLOYMENT_ID.test(value);
