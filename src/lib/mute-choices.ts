/** How long a mute (or an issue's snooze) lasts, from now. */
export const MUTE_CHOICES = [
  { value: '60', label: '1 hour' },
  { value: '240', label: '4 hours' },
  { value: '1440', label: '24 hours' },
  { value: '10080', label: '1 week' },
] as const;
export type MuteChoice = (typeof MUTE_CHOICES)[number]['value'];

/** The end of a mute of `minutes` from `now`, as the service takes it (RFC3339 UTC). */
export function muteUntil(minutes: MuteChoice, now: number): string {
  return new Date(now + Number(minutes) * 60_000).toISOString();
}
