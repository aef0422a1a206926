/** Who an account request is from, once its credential has been checked. */
export type Principal = {
  accountId: string;
  via: 'bearer' | 'session' | 'tool_connection';
  /**
   * Set for a tool connection (the spec's delegated credential): reads only, and only of the
   * projects it covers.
   */
  delegation?: Delegation;
};

export type Delegation = { connectionId: string; projectIds: ReadonlySet<string> };
