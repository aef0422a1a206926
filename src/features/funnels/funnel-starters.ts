import type { FunnelKind } from '../../api/queries/analytics';
import type { FunnelStepSearch } from './funnels-search';

/**
 * Funnels worth starting from, offered only when every step's action was seen in the project
 * and range: a suggested definition, never a result (the numbers are read from the service
 * once it is chosen). A view step matches a page view or a screen view of that name (web and
 * app shops name their screens alike); the kind seen most often is taken.
 */
type StarterStep = { name: string; kinds: readonly FunnelKind[] };
type Starter = { id: string; title: string; steps: readonly StarterStep[] };

const VIEW: readonly FunnelKind[] = ['page_view', 'screen_view'];
const TAP: readonly FunnelKind[] = ['interaction'];

export const STARTERS: readonly Starter[] = [
  {
    id: 'shop-checkout',
    title: 'Shop checkout',
    steps: [
      { name: 'Home', kinds: VIEW },
      { name: 'Product', kinds: VIEW },
      { name: 'Add to cart', kinds: TAP },
      { name: 'Checkout', kinds: VIEW },
      { name: 'Place order', kinds: TAP },
    ],
  },
];

export type OfferedStarter = { id: string; title: string; steps: FunnelStepSearch[] };

type SeenAction = { name: string; kind: FunnelKind; events: number };

/** The starters whose every step was seen, each step as the action seen most often. */
export function offeredStarters(seen: readonly SeenAction[]): OfferedStarter[] {
  const offered: OfferedStarter[] = [];
  for (const starter of STARTERS) {
    const steps: FunnelStepSearch[] = [];
    for (const step of starter.steps) {
      const best = seen
        .filter((a) => a.name === step.name && step.kinds.includes(a.kind))
        .reduce<SeenAction | null>((b, a) => (b === null || a.events > b.events ? a : b), null);
      if (best === null) break;
      steps.push({ kind: best.kind, name: best.name });
    }
    if (steps.length === starter.steps.length)
      offered.push({ id: starter.id, title: starter.title, steps });
  }
  return offered;
}
