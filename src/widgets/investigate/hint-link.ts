import type { InvestigationHint } from '../../api/queries/investigations';

/** A console page for a hint the service gives, or null when the console has none. */
export type HintLink =
  | { to: '/issues/$issueId'; params: { issueId: string }; label: string }
  | { to: '/traces/$traceId'; params: { traceId: string }; label: string };

const ISSUE =
  /^\/api\/telemetry\/issues\/([0-9a-fA-F-]{36})\/(investigation|events|correction-verification)(?:\?|$)/;
const TRACE = /^\/api\/telemetry\/traces\/([0-9a-fA-F]{1,64})\/investigation(?:\?|$)/;

const ISSUE_LABELS: Record<string, string> = {
  investigation: 'Open the issue',
  events: 'Open the issue’s occurrences',
  'correction-verification': 'Open the issue to check the fix',
};

/**
 * Hints are GET paths of the service; the console links only those it has a page for (an
 * issue, a trace), and only ids of the expected shape, so a hint never becomes an open link.
 */
export function hintLink(hint: InvestigationHint): HintLink | null {
  const issue = ISSUE.exec(hint.path);
  if (issue?.[1] && issue[2]) {
    return {
      to: '/issues/$issueId',
      params: { issueId: issue[1] },
      label: ISSUE_LABELS[issue[2]] ?? 'Open the issue',
    };
  }
  const trace = TRACE.exec(hint.path);
  if (trace?.[1])
    return { to: '/traces/$traceId', params: { traceId: trace[1] }, label: 'Open the trace' };
  return null;
}
