import type { DeploymentRecord } from '../../core/store/state/deployments';

export type DeploymentDbRow = {
  project_id: string;
  deployment_id: string;
  release: string;
  environment: string;
  service_name: string;
  status: DeploymentRecord['status'];
  started_at: number;
  finished_at: number;
  commit_sha: string | null;
  created_at: number;
};

export const DEPLOYMENT_COLUMNS = `project_id, deployment_id, release, environment, service_name, status, started_at,
  finished_at, commit_sha, created_at`;

export const toDeployment = (r: DeploymentDbRow): DeploymentRecord => ({
  projectId: r.project_id,
  deploymentId: r.deployment_id,
  release: r.release,
  environment: r.environment,
  serviceName: r.service_name,
  status: r.status,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  commitSha: r.commit_sha,
  createdAt: r.created_at,
});
