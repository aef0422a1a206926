import type { Db } from '../../sqlite/database';
import type {
  DeploymentListQuery,
  DeploymentRecord,
  DeploymentsStore,
} from '../../../core/store/state/deployments';
import {
  DEPLOYMENT_COLUMNS,
  countMatchingDeploymentsStatement,
  deploymentListStatement,
  matchingDeploymentsStatement,
  toDeployment,
  type DeploymentDbRow,
} from '../../rows/deployments';
import { allRows, firstRow, sqliteDialect } from '../../sqlite/sqlite-sql';

export function sqliteDeployments(db: Db): DeploymentsStore {
  const byId = db.prepare<[string, string], DeploymentDbRow>(
    `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments WHERE project_id = ? AND deployment_id = ?`,
  );
  const insert = db.prepare(`INSERT INTO deployments (${DEPLOYMENT_COLUMNS}, created_by)
    VALUES (@projectId, @deploymentId, @release, @environment, @serviceName, @status, @startedAt,
      @finishedAt, @commitSha, @createdAt, @createdBy)
    ON CONFLICT (project_id, deployment_id) DO NOTHING`);
  // Insert-or-read in one transaction, so two concurrent first sends cannot both create.
  const put = db.transaction((record: DeploymentRecord, createdBy: string) => {
    const created = insert.run({ ...record, createdBy }).changes === 1;
    const row = byId.get(record.projectId, record.deploymentId);
    if (row === undefined) throw new Error('deployment vanished');
    return { stored: toDeployment(row), created };
  });

  return {
    async get(projectId, deploymentId) {
      const row = byId.get(projectId, deploymentId);
      return row === undefined ? null : toDeployment(row);
    },
    async put(record, createdBy) {
      return put(record, createdBy);
    },
    async list(q: DeploymentListQuery) {
      if (q.projectIds.length === 0) return [];
      return allRows<DeploymentDbRow>(
        db,
        deploymentListStatement(q, sqliteDialect.anyOf('project_id', q.projectIds)),
      ).map(toDeployment);
    },
    async matching(q) {
      return allRows<DeploymentDbRow>(db, matchingDeploymentsStatement(q)).map(toDeployment);
    },
    async countMatching(q) {
      return firstRow<{ n: number }>(db, countMatchingDeploymentsStatement(q))?.n ?? 0;
    },
  };
}
