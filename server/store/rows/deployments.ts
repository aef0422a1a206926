import type {
  DeploymentListQuery,
  DeploymentMatch,
  DeploymentRecord,
} from '../../core/store/state/deployments';
import { releaseContextConditions } from './conditions';
import { and, raw, sql, type SqlFragment } from './sql';

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

/** A deployment list page after its project condition (each engine writes that its own way). */
export function deploymentListStatement(
  q: DeploymentListQuery,
  inProjects: SqlFragment,
): SqlFragment {
  const where = [inProjects];
  if (q.status !== null) where.push(sql`status = ${q.status}`);
  if (q.since !== null) where.push(sql`finished_at >= ${q.since}`);
  if (q.until !== null) where.push(sql`finished_at <= ${q.until}`);
  if (q.after !== null)
    where.push(
      sql`(finished_at, project_id, deployment_id) < (${q.after.time}, ${q.after.projectId}, ${q.after.deploymentId})`,
    );
  return sql`SELECT ${raw(DEPLOYMENT_COLUMNS)} FROM deployments WHERE ${and(where)}
    ORDER BY finished_at DESC, project_id DESC, deployment_id DESC LIMIT ${q.limit}`;
}

const matchConditions = (q: Omit<DeploymentMatch, 'limit'>): SqlFragment[] => [
  ...releaseContextConditions(q),
  ...(q.finishedFrom === null ? [] : [sql`finished_at >= ${q.finishedFrom}`]),
  ...(q.finishedTo === null ? [] : [sql`finished_at <= ${q.finishedTo}`]),
];

/** Deployments matching an investigation's filters, newest finish first. */
export const matchingDeploymentsStatement = (q: DeploymentMatch): SqlFragment =>
  sql`SELECT ${raw(DEPLOYMENT_COLUMNS)} FROM deployments WHERE ${and(matchConditions(q))}
    ORDER BY finished_at DESC, deployment_id DESC LIMIT ${q.limit}`;

/** How many deployments match. */
export const countMatchingDeploymentsStatement = (q: Omit<DeploymentMatch, 'limit'>): SqlFragment =>
  sql`SELECT COUNT(*) AS n FROM deployments WHERE ${and(matchConditions(q))}`;
