import type { AlertRule } from '../../api/queries/alerts';
import { formatUtcDateTime } from '../../lib/format-time';

export type RuleStateTone = 'firing' | 'ok' | 'off' | 'muted' | 'failing';

/** The rule's state in words (the colour only repeats them): off, muted, failing, firing, OK. */
export function ruleState(rule: AlertRule, now: number): { text: string; tone: RuleStateTone } {
  if (!rule.enabled) return { text: 'Off', tone: 'off' };
  if (rule.muted_until !== null && Date.parse(rule.muted_until) > now) {
    return { text: `Muted until ${formatUtcDateTime(rule.muted_until)}`, tone: 'muted' };
  }
  // Its last window could not be read: firing or OK is only what it was before.
  if (rule.last_error !== null) return { text: 'Not evaluated', tone: 'failing' };
  if (rule.state === 'firing') return { text: 'Firing', tone: 'firing' };
  return { text: 'OK', tone: 'ok' };
}
