import type { LiveStatus } from '../../live/live-store';

/** What the Live indicator says for a state; `secondsLeft` counts down to the next attempt. */
export function liveStatusText(status: LiveStatus, secondsLeft: number | null): string {
  switch (status) {
    case 'live':
      return 'Live';
    case 'connecting':
      return 'Connecting…';
    case 'reconnecting':
      return secondsLeft !== null && secondsLeft > 0
        ? `Reconnecting in ${secondsLeft} s`
        : 'Reconnecting…';
    case 'paused':
      return 'Paused';
    case 'stopped':
      return 'Offline';
  }
}

/** `12 new`; the store keeps at most a thousand events, so more reads as `999+`. */
export function unseenText(count: number): string {
  return `${count > 999 ? '999+' : count} new`;
}
