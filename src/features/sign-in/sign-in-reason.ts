/** Why the sign-in page is shown; carried in its `reason` search value. */
export const signInReasons = [
  'expired',
  'signed-out',
  'everywhere',
  'everywhere-unconfirmed',
] as const;

export type SignInReason = (typeof signInReasons)[number];
