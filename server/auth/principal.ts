/** Who an account request is from, once its credential has been checked. */
export type Principal = {
  accountId: string;
  via: 'bearer' | 'session';
};
