import type { CorrectionVerification } from '../../api/queries/investigations';

type Verdict = CorrectionVerification['verdict'];

/** The verdict of a correction check as a sentence people read first. */
export const VERDICT_TEXT: Record<Verdict, string> = {
  recurred: 'No — the issue came back after the deployment.',
  not_recurred_yet: 'So far, yes — the issue has not come back since the deployment.',
  inconclusive: 'Not known yet — this check cannot tell.',
};

export function verdictTone(verdict: Verdict): 'success' | 'danger' | 'warning' {
  return verdict === 'recurred' ? 'danger' : verdict === 'not_recurred_yet' ? 'success' : 'warning';
}

/** How long the issue has been watched after the deployment, against the minimum. */
export function observationSentence(o: CorrectionVerification['observation']): string {
  const span = durationText(o.observed_seconds);
  const min = durationText(o.minimum_observation_seconds);
  return o.observed_seconds >= o.minimum_observation_seconds
    ? `Watched for ${span} after the deployment finished (at least ${min} is needed).`
    : `Watched for only ${span} after the deployment finished; at least ${min} is needed.`;
}

function durationText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  if (s < 172_800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} days`;
}
