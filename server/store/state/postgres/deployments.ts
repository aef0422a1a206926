import type { DeploymentListQuery, DeploymentsStore } from '../../../core/store/state/deployments';
import {
  DEPLOYMENT_COLUMNS,
  countMatchingDeploymentsStatement,
  deploymentListStatement,
  matchingDeploymentsStatement,
  toDeployment,
  type DeploymentDbRow,
} from '../../rows/deployments';
import type { PgDb } from '../../postgres/pg-database';
import { pgDialect } from '../../postgres/pg-sql';
import { sql, raw } from '../../rows/sql';

const byId = (projectId: string, deploymentId: string) =>
  sql`SELECT ${raw(DEPLOYMENT_COLUMNS)} FROM deployments
    WHERE project_id = ${projectId} AND deployment_id = ${deploymentId}`;

export function pgDeployments(db: PgDb): DeploymentsStore {
  return {
    async get(projectId, deploymentId) {
      const r = await db.one<DeploymentDbRow>(byId(projectId, deploymentId));
      return r ? toDeployment(r) : null;
    },
    async put(record, createdBy) {
      // Insert-or-read: of two concurrent first sends (on any instances) one creates, and
      // the other waits on the row and then reads what it stored.
      const inserted =
        await db.one<DeploymentDbRow>(sql`INSERT INTO deployments (${raw(DEPLOYMENT_COLUMNS)},
        created_by)
         VALUES (${record.projectId}, ${record.deploymentId}, ${record.release},
         ${record.environment}, ${record.serviceName}, ${record.status}, ${record.startedAt},
         ${record.finishedAt}, ${record.commitSha}, ${record.createdAt}, ${createdBy})
         ON CONFLICT (project_id, deployment_id) DO NOTHING
         RETURNING ${raw(DEPLOYMENT_COLUMNS)}`);
      if (inserted) return { stored: toDeployment(inserted), created: true };
      const row = await db.one<DeploymentDbRow>(byId(record.projectId, record.deploymentId));
      if (row === null) throw new Error('deployment vanished');
      return { stored: toDeployment(row), created: false };
    },
    async list(q: DeploymentListQuery) {
      if (q.projectIds.length === 0) return [];
      const rows = await db.rows<DeploymentDbRow>(
        deploymentListStatement(q, pgDialect.anyOf('project_id', q.projectIds)),
      );
      return rows.map(toDeployment);
    },
    async matching(q) {
      return (await db.rows<DeploymentDbRow>(matchingDeploymentsStatement(q))).map(toDeployment);
    },
    async countMatching(q) {
      return (await db.one<{ n: number }>(countMatchingDeploymentsStatement(q)))?.n ?? 0;
    },
  };
}
