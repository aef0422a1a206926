import type {
  DeploymentListQuery,
  DeploymentMatch,
  DeploymentsStore,
} from '../../../core/store/state/deployments';
import { DEPLOYMENT_COLUMNS, toDeployment, type DeploymentDbRow } from '../../rows/deployments';
import type { PgDb } from '../../postgres/pg-database';
import { param, releaseContextWhere } from '../../postgres/where';

const BY_ID = `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments
  WHERE project_id = $1 AND deployment_id = $2`;

function deploymentWhere(q: Omit<DeploymentMatch, 'limit'>, args: unknown[]): string {
  const where = releaseContextWhere(q, args);
  if (q.finishedFrom !== null) where.push(`finished_at >= ${param(args, q.finishedFrom)}`);
  if (q.finishedTo !== null) where.push(`finished_at <= ${param(args, q.finishedTo)}`);
  return where.join(' AND ');
}

export function pgDeployments(db: PgDb): DeploymentsStore {
  return {
    async get(projectId, deploymentId) {
      const r = await db.one<DeploymentDbRow>(BY_ID, [projectId, deploymentId]);
      return r ? toDeployment(r) : null;
    },
    async put(record, createdBy) {
      // Insert-or-read: of two concurrent first sends (on any instances) one creates, and
      // the other waits on the row and then reads what it stored.
      const inserted = await db.one<DeploymentDbRow>(
        `INSERT INTO deployments (${DEPLOYMENT_COLUMNS}, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (project_id, deployment_id) DO NOTHING
         RETURNING ${DEPLOYMENT_COLUMNS}`,
        [
          record.projectId,
          record.deploymentId,
          record.release,
          record.environment,
          record.serviceName,
          record.status,
          record.startedAt,
          record.finishedAt,
          record.commitSha,
          record.createdAt,
          createdBy,
        ],
      );
      if (inserted) return { stored: toDeployment(inserted), created: true };
      const row = await db.one<DeploymentDbRow>(BY_ID, [record.projectId, record.deploymentId]);
      if (row === null) throw new Error('deployment vanished');
      return { stored: toDeployment(row), created: false };
    },
    async list(q: DeploymentListQuery) {
      if (q.projectIds.length === 0) return [];
      const args: unknown[] = [q.projectIds];
      const where = ['project_id = ANY($1::text[])'];
      const arg = (v: unknown) => {
        args.push(v);
        return `$${args.length}`;
      };
      if (q.status !== null) where.push(`status = ${arg(q.status)}`);
      if (q.since !== null) where.push(`finished_at >= ${arg(q.since)}`);
      if (q.until !== null) where.push(`finished_at <= ${arg(q.until)}`);
      if (q.after !== null) {
        where.push(
          `(finished_at, project_id, deployment_id) < (${arg(q.after.time)}, ${arg(q.after.projectId)}, ${arg(q.after.deploymentId)})`,
        );
      }
      const limit = arg(q.limit);
      const rows = await db.rows<DeploymentDbRow>(
        `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments WHERE ${where.join(' AND ')}
         ORDER BY finished_at DESC, project_id DESC, deployment_id DESC LIMIT ${limit}`,
        args,
      );
      return rows.map(toDeployment);
    },
    async matching(q) {
      const args: unknown[] = [];
      const where = deploymentWhere(q, args);
      const rows = await db.rows<DeploymentDbRow>(
        `SELECT ${DEPLOYMENT_COLUMNS} FROM deployments WHERE ${where}
         ORDER BY finished_at DESC, deployment_id DESC LIMIT ${param(args, q.limit)}`,
        args,
      );
      return rows.map(toDeployment);
    },

    async countMatching(q) {
      const args: unknown[] = [];
      const where = deploymentWhere(q, args);
      return (
        (await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM deployments WHERE ${where}`, args))
          ?.n ?? 0
      );
    },
  };
}
