/** An account's role in an organization. */
export type OrgRole = 'owner' | 'admin' | 'member';
