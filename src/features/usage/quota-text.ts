import type { AccountUsage } from '../../api/queries/account';
import type { CalloutTone } from '../../ui/callout';
import { formatPercentUsed } from '../../lib/format-share';
import { formatUtcDateTime } from '../../lib/format-time';

type LimitGroup = NonNullable<AccountUsage['limit']>;

/** What each limit group measures (spec "Quota state"): never parsed from `next`. */
export const LIMIT_GROUPS: Record<LimitGroup, { name: string; measures: string }> = {
  events: { name: 'Events', measures: 'issue events and trace spans' },
  bytes: { name: 'Bytes', measures: 'log bytes and metric bytes' },
};

export type QuotaText = { tone: CalloutTone; title: string; detail: string };

/**
 * The banner for a usage snapshot, from its typed fields only (`state`, `limit`,
 * `percent_used`, `warning_threshold`, `reset_at`); the service's `next` is shown beside it
 * as it is.
 */
export function quotaText(usage: AccountUsage): QuotaText {
  const reset = formatUtcDateTime(usage.reset_at);
  const threshold = Math.round(usage.warning_threshold * 100);
  const group = usage.limit ? LIMIT_GROUPS[usage.limit] : null;
  const used = formatPercentUsed(usage.percent_used, usage.usage);
  switch (usage.state) {
    case 'ok':
      return {
        tone: 'success',
        title: 'Within every allowance',
        detail: `${used.charAt(0).toUpperCase()}${used.slice(1)} of the fullest allowance is used this period; a warning starts at ${threshold}%. Allowances reset ${reset}.`,
      };
    case 'warning':
      return {
        tone: 'warning',
        title: `${group?.name ?? 'Usage'}: ${used} of an allowance used`,
        detail: `Past the ${threshold}% warning threshold${group ? ` on ${group.measures}` : ''}. Telemetry is still accepted; at 100% it is refused until ${reset}.`,
      };
    case 'blocked':
      return {
        tone: 'danger',
        title: `${group?.name ?? 'Usage'} allowance used up`,
        detail: `Ingestion of ${group?.measures ?? 'the exceeded type'} is refused (429 usage_limit_exceeded) until the allowance resets ${reset}, or the plan changes. Other types are still accepted.`,
      };
  }
}
