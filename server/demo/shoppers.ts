import type { Rng } from './random';

/**
 * The shop's signed-in customers: a fixed pool where a few people come back often and most
 * rarely. A customer's tier and region follow from their number, so the same person always
 * has the same tier wherever they appear (issues, logs, actions).
 */
export type Shopper = {
  id: string;
  tier: 'free' | 'plus' | 'business';
  region: 'eu-west' | 'eu-central' | 'us-east' | 'uk';
};

const POOL = 2400;
const TIERS: readonly Shopper['tier'][] = [
  'free',
  'free',
  'plus',
  'free',
  'free',
  'plus',
  'free',
  'business',
  'free',
  'plus',
];
const REGIONS: readonly Shopper['region'][] = ['eu-west', 'eu-central', 'us-east', 'uk'];

export function shopperByNumber(n: number): Shopper {
  return {
    id: `u_${(10_000 + n).toString(36)}`,
    tier: TIERS[n % TIERS.length] ?? 'free',
    region: REGIONS[Math.floor(n / 7) % REGIONS.length] ?? 'eu-west',
  };
}

/** A signed-in customer; lower numbers come back more often (a squared uniform draw). */
export function pickShopper(rng: Rng): Shopper {
  return shopperByNumber(Math.floor(rng.next() ** 2 * POOL));
}
