import type { Db } from '../../sqlite/database';
import type {
  DeploymentListQuery,
  DeploymentMatch,
  DeploymentRecord,
  DeploymentsStore,
} from '../../../core/store/state/deployments';
import { DEPLOYMENT_COLUMNS, toDeployment, type DeploymentDbRow } from '../../rows/deployments';

import { releaseContextWhere } from '../../sqlite/where';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function deploymentWhere(q: Omit<DeploymentMatch, 'limit'>) {
  const { where, args } = releaseContextWhere(q);
  if (q.finishedFrom !== null) {
    where.push('finished_at >= ?');
    args.push(q.finishedFrom);
  }
  if (q.finishedTo !== null) {
    where.push('finished_at <= ?');
    args.push(q.finishedTo);
  }
  return { where: where.join(' AND '), args };
}

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
      const where = [`project_id IN (${marks(q.projectIds.length)})`];
      const args: (string | number)[] = [...q.projectIds];
      if (q.status !== null) {
        where.push('status = ?');
        args.push(q.status);
      }
      if (q.since !== null) {
        where.push('finished_at >= ?');
        args.push(q.since);
      }
      if (q.until !== null) {
        where.push('finished_at <= ?');
        args.push(q.until);
      }
      if (q.after !== null) {
        where.push('(finished_at, project_id, deployment_id) < (?, ?, ?)');
        args.push(q.after.time, q.after.projectId, q.after.deploymentId);
      }
      args.push(q.limit);
      return db
        .prepare<(string | number)[], DeploymentDbRow>(
          `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments WHERE ${where.join(' AND ')}
           ORDER BY finished_at DESC, project_id DESC, deployment_id DESC LIMIT ?`,
        )
        .all(...args)
        .map(toDeployment);
    },
    async matching(q) {
      const { where, args } = deploymentWhere(q);
      return db
        .prepare<unknown[], DeploymentDbRow>(
          `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments WHERE ${where}
           ORDER BY finished_at DESC, deployment_id DESC LIMIT ?`,
        )
        .all(...args, q.limit)
        .map(toDeployment);
    },

    async countMatching(q) {
      const { where, args } = deploymentWhere(q);
      return (
        db
          .prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM deployments WHERE ${where}`)
          .get(...args)?.n ?? 0
      );
    },
  };
}
