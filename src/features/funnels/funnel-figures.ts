import type { AnalysisUnit, Funnel } from '../../api/queries/analytics';
import { formatFraction } from '../../lib/format-share';

/** Conversion windows offered in the form, in seconds (the service takes 1 s to 31 days). */
export const WINDOW_CHOICES: readonly { seconds: number; label: string }[] = [
  { seconds: 5 * 60, label: '5 minutes' },
  { seconds: 30 * 60, label: '30 minutes' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 6 * 3_600, label: '6 hours' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 14 * 86_400, label: '14 days' },
  { seconds: 31 * 86_400, label: '31 days' },
];

/** A window in words: a listed choice by its label, another one in its largest whole unit. */
export function windowLabel(seconds: number): string {
  const listed = WINDOW_CHOICES.find((c) => c.seconds === seconds);
  if (listed) return listed.label;
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, noun] of units) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}

export const UNIT_NOUNS: Record<AnalysisUnit, { one: string; many: string }> = {
  session: { one: 'session', many: 'sessions' },
  identified_user: { one: 'user', many: 'users' },
};

export const unitCount = (n: number, unit: AnalysisUnit) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? UNIT_NOUNS[unit].one : UNIT_NOUNS[unit].many}`;

/** One step as the page shows it, every number taken from the service's answer. */
export type StepFigures = {
  position: number;
  kind: Funnel['steps'][number]['kind'];
  name: string;
  units: number;
  fromFirst: number;
  /** `null` for step 1 (nothing before it). */
  fromPrevious: number | null;
  /** Units lost before the next step; `null` for the last step. */
  dropOff: { units: number; rate: number } | null;
};

/**
 * The steps with conversion from the previous step on every step: the service gives the last
 * step's `conversion_from_previous` and every other step's drop-off to the next, so a middle
 * step's conversion is one minus its predecessor's drop-off rate (the same fraction), and 0
 * when the predecessor had no units, as the service reports rates over 0.
 */
export function stepFigures(funnel: Funnel): StepFigures[] {
  const out: StepFigures[] = [];
  let previous: { units: number; dropRate: number | null } | null = null;
  for (const s of funnel.steps) {
    const dropOff =
      'drop_off_to_next_units' in s
        ? { units: s.drop_off_to_next_units, rate: s.drop_off_to_next_rate }
        : null;
    const fromPrevious =
      s.position === 1
        ? null
        : 'conversion_from_previous' in s
          ? s.conversion_from_previous
          : previous === null || previous.dropRate === null
            ? null
            : // Like the service's rates: 0 when the denominator is 0.
              previous.units === 0
              ? 0
              : 1 - previous.dropRate;
    out.push({
      position: s.position,
      kind: s.kind,
      name: s.event_name,
      units: s.units,
      fromFirst: s.conversion_from_first,
      fromPrevious,
      dropOff,
    });
    previous = { units: s.units, dropRate: dropOff?.rate ?? null };
  }
  return out;
}

/**
 * The coverage line shown before any result: how many of the events matching the steps could
 * be attributed to a unit (the rest are never counted).
 */
export function coverageSentence(funnel: Funnel): string {
  const c = funnel.coverage;
  const unit = UNIT_NOUNS[funnel.query.analysis_unit].one;
  if (c.selected_step_events === 0)
    return 'No action in this range matches any step, so nothing could be attributed.';
  return `${formatFraction(c.selected_unit_coverage_rate)} of selected step events could be attributed to a ${unit} (${c.usable_selected_step_events.toLocaleString('en-US')} of ${c.selected_step_events.toLocaleString('en-US')}).`;
}
