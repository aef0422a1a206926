import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { alertMutations, type AlertRule } from '../../api/queries/alerts';
import { Button } from '../../ui/button';
import { FilterSelect } from '../../ui/filter-select';
import { useTickingNow } from '../../ui/use-ticking-now';
import { WriteFailure } from '../../ui/write-failure';
import styles from './alerts-page.module.css';
import { MUTE_CHOICES, muteUntil, type MuteChoice } from '../../lib/mute-choices';
import type { ChangePermission } from './rule-permission';

/**
 * Mute a rule until a time: it keeps evaluating (its incidents are recorded) but notifies
 * nobody until then. A muted rule says until when, with Unmute.
 */
export function MuteControl({
  rule,
  permission,
}: {
  rule: AlertRule;
  permission: ChangePermission;
}) {
  const change = useMutation(alertMutations.changeRule(rule.id));
  const now = useTickingNow(30_000);
  const [choice, setChoice] = useState<MuteChoice>('60');
  const muted = rule.muted_until !== null && Date.parse(rule.muted_until) > now;
  const disabled = !permission.allowed || change.isPending;
  const reason = permission.allowed ? undefined : permission.reason;
  return (
    <div className={styles.section}>
      <div className={styles.ruleActions}>
        {muted && rule.muted_until !== null ? (
          <>
            <span className={styles.note} role="status">
              Muted: incidents are still recorded, nobody is notified.
            </span>
            <Button
              size="sm"
              disabled={disabled}
              title={reason}
              onClick={() => change.mutate({ muted_until: null })}
            >
              {change.isPending ? 'Unmuting…' : 'Unmute'}
            </Button>
          </>
        ) : (
          <>
            <FilterSelect
              aria-label="Mute for"
              empty
              value={choice}
              disabled={disabled}
              onChange={(e) => {
                const next = MUTE_CHOICES.find((c) => c.value === e.target.value);
                if (next) setChoice(next.value);
              }}
            >
              {MUTE_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  for {c.label}
                </option>
              ))}
            </FilterSelect>
            <Button
              size="sm"
              disabled={disabled}
              title={reason}
              onClick={() => change.mutate({ muted_until: muteUntil(choice, Date.now()) })}
            >
              {change.isPending ? 'Muting…' : 'Mute'}
            </Button>
          </>
        )}
      </div>
      {change.isError && <WriteFailure error={change.error} idempotent />}
    </div>
  );
}
