import { useLiveFeed } from './use-live-feed';

/** Keeps the live feed connected while mounted (once, in the signed-in layout). Renders nothing. */
export function LiveFeed() {
  useLiveFeed();
  return null;
}
