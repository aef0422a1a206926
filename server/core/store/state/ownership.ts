export interface OwnershipStore {
  get(projectId: string): Promise<OwnershipRecord>;
  /**
   * Replaces the given texts (an absent one keeps its text). `updatedAt` moves to `at` only
   * when a text really changes.
   */
  set(change: {
    projectId: string;
    rules?: string;
    codeowners?: string;
    at: number;
    by: string;
  }): Promise<OwnershipRecord>;
}

/** A project's issue ownership texts; both empty and `updatedAt` null until first set. */
export type OwnershipRecord = {
  projectId: string;
  rules: string;
  codeowners: string;
  updatedAt: number | null;
};
