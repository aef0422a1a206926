import type { LogRule } from '../telemetry/logs';

/**
 * Log triage rules, by project and triage key (a log's source, service and message template).
 * People set them, so they are state; the logs they match may live in another engine, whose
 * reads apply them (effective severity, ignored) from here.
 */
export interface LogRulesStore {
  /** Every rule of the project, by triage key. */
  ofProject(projectId: string): Promise<Map<string, LogRule>>;
  /** Sets (or, with null, removes) the rule of a triage key. */
  set(change: {
    projectId: string;
    triageKey: string;
    rule: LogRule | null;
    at: number;
    by: string;
  }): Promise<void>;
}
