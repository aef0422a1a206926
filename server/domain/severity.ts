/** Spec "Severity": canonical values, and the input aliases that normalize to them. */
export const SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

const aliases: Record<string, Severity> = {
  trace: 'info',
  debug: 'info',
  info: 'info',
  warn: 'warning',
  warning: 'warning',
  error: 'error',
  fatal: 'critical',
  critical: 'critical',
};

/** The canonical severity of an input value, or null when the value is not accepted. */
export function normalizeSeverity(value: string): Severity | null {
  return Object.hasOwn(aliases, value) ? (aliases[value] ?? null) : null;
}

export const SEVERITY_INPUTS = Object.keys(aliases);

const rank: Record<Severity, number> = { info: 0, warning: 1, error: 2, critical: 3 };
export const severityRank = (s: Severity): number => rank[s];
