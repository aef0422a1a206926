import { ACTION_KIND_LABELS, type AnalyticsProperties } from '../../api/queries/analytics';
import { formatBasisPoints } from '../../lib/format-share';
import type { ActionRef, PathUnit } from './analytics-overview-search';

/** Words and numbers of the analytics page, shaped here so components only place them. */

export const formatCount = (n: number) => n.toLocaleString('en-US');

/** A service rate (a fraction from 0 to 1) as a percentage: `38.2%`, `0.05%`, `100%`. */
export const formatRate = (rate: number) => formatBasisPoints(rate * 10_000);

export const plural = (n: number, one: string, many: string) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * The coverage line of a section, first and in words: `97.0% of 12,340 actions carry a session
 * id`. Over no actions there is no share to give, and saying "0%" would read as a measurement.
 */
export function coverageSentence(part: number, whole: number, carry: string): string {
  if (whole === 0) return 'No coverage to report: no actions were counted in range';
  const share = formatBasisPoints((part / whole) * 10_000);
  return `${share} of ${plural(whole, 'action', 'actions')} ${carry}`;
}

/** How a property key's values are typed: `string 90.0%, number 10.0%` (most first). */
export function typeBreakdown(property: AnalyticsProperties['properties'][number]): string {
  if (property.events === 0 || property.types.length === 0) return 'no values';
  if (property.types.length === 1) return `${property.types[0]?.type ?? ''} 100%`;
  return property.types
    .map((t) => `${t.type} ${formatBasisPoints((t.events / property.events) * 10_000)}`)
    .join(', ');
}

/** An action in words: `Page view /pricing`. */
export const actionText = (action: ActionRef) =>
  `${ACTION_KIND_LABELS[action.kind]} ${action.name}`;

/** What one unit of a path analysis is called. */
export function unitNoun(unit: PathUnit, n: number): string {
  return unit === 'session' ? (n === 1 ? 'session' : 'sessions') : n === 1 ? 'user' : 'users';
}

/** The words an all-zero read gets: it never proves access (spec, shared analytics rules). */
export const NO_ACTIONS_TITLE = 'No actions in this project and range';

type Matcher = { kind: ActionRef['kind']; event_name: string } | null;

/**
 * The retention coverage line: how many actions in range count as starts and as returns.
 * With neither chosen every action is both, which is said once instead of three equal counts.
 */
export function retentionCoverageLine(
  coverage: { events: number; start_events: number; return_events: number },
  start: Matcher,
  back: Matcher,
): string {
  if (coverage.events === 0) return 'No actions in range';
  const all = plural(coverage.events, 'action', 'actions');
  if (!start && !back) return `All ${all} count as start and return actions (any action)`;
  const part = (n: number, m: Matcher, role: string) =>
    m
      ? `${formatCount(n)} are the ${role} action (${actionText({ kind: m.kind, name: m.event_name })})`
      : `all count as ${role} actions`;
  return `Of ${all} in range, ${part(coverage.start_events, start, 'start')}; ${part(coverage.return_events, back, 'return')}`;
}
