import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery } from '@tanstack/react-query';
import {
  analyticsQueries,
  ACTION_KIND_LABELS,
  type OverviewParams,
} from '../../api/queries/analytics';
import { Button } from '../../ui/button';
import styles from './funnel-definition-form.module.css';
import { offeredStarters } from './funnel-starters';
import type { FunnelStepSearch } from './funnels-search';

/**
 * A starting point for an empty funnel: a known sequence (the shop checkout) offered only when
 * every one of its actions was seen in the project and range. Choosing it sets the steps; the
 * numbers are then read from the service like any funnel's.
 */
export function FunnelStarterOffer({
  params,
  onUse,
}: {
  params: OverviewParams;
  onUse: (steps: FunnelStepSearch[]) => void;
}) {
  const query = useQuery(analyticsQueries.overview(params));
  const starters = offeredStarters(query.data?.top_actions ?? []);
  if (starters.length === 0) return null;
  return (
    <div className={styles.starters} role="group" aria-label="Suggested funnels">
      <p className={styles.startersTitle}>Start from a funnel of the actions seen here</p>
      <ul className={styles.starterList}>
        {starters.map((s) => (
          <li key={s.id} className={styles.starter}>
            <span className={styles.starterText}>
              <span className={styles.starterName}>{s.title}</span>
              <span className={styles.starterSteps}>
                {s.steps.map((step, i) => (
                  <span key={`${i}:${step.name}`}>
                    {i > 0 && <span aria-hidden="true"> → </span>}
                    <span title={ACTION_KIND_LABELS[step.kind]}>
                      <TelemetryText text={step.name} />
                    </span>
                  </span>
                ))}
              </span>
            </span>
            <Button
              size="sm"
              onClick={() => onUse(s.steps)}
              aria-label={`Use the ${s.title} funnel`}
            >
              Use this funnel
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
