/**
 * How long ago a read was, for a "Read 14:05:09 UTC · 12 s ago" stamp: seconds while it is
 * fresh (that is when they matter), then minutes and hours.
 */
export function formatAge(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  return `${Math.floor(m / 60)} h ago`;
}
