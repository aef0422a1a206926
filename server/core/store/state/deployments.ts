/** Deployments recorded per project (spec "Deployments"). */
export interface DeploymentsStore {
  get(projectId: string, deploymentId: string): Promise<DeploymentRecord | null>;
  /**
   * Stores the deployment unless one with its id exists in the project; returns what is
   * stored then and whether this call created it.
   */
  put(
    record: DeploymentRecord,
    createdBy: string,
  ): Promise<{ stored: DeploymentRecord; created: boolean }>;
  /** Matching deployments, newest finish first, at most `limit`. */
  list(q: DeploymentListQuery): Promise<DeploymentRecord[]>;
  /** Deployments of one project matching the filters, newest finish first (investigations). */
  matching(q: DeploymentMatch): Promise<DeploymentRecord[]>;
  /** How many deployments match (to say how many a bundle left out). */
  countMatching(q: Omit<DeploymentMatch, 'limit'>): Promise<number>;
}

export type DeploymentStatus = 'succeeded' | 'failed';

export type DeploymentRecord = {
  projectId: string;
  deploymentId: string;
  release: string;
  environment: string;
  serviceName: string;
  status: DeploymentStatus;
  startedAt: number;
  finishedAt: number;
  commitSha: string | null;
  createdAt: number;
};

export type DeploymentListQuery = {
  projectIds: string[];
  status: DeploymentStatus | null;
  /** Epoch ms, both inclusive, compared with `finishedAt`. */
  since: number | null;
  until: number | null;
  /** Rows strictly after this position in (finished_at, project, deployment id) descending order. */
  after: { time: number; projectId: string; deploymentId: string } | null;
  limit: number;
};

export type DeploymentMatch = {
  projectId: string;
  release: string | null;
  environment: string | null;
  serviceName: string | null;
  /** Epoch ms, both inclusive, compared with `finished_at`; null for no bound. */
  finishedFrom: number | null;
  finishedTo: number | null;
  limit: number;
};
