import type { DeploymentListParams, ReleaseListFilters } from '../../api/queries/releases';

/**
 * Which deployment history the list reads for its rows: the one project of a one-project
 * scope, otherwise every readable project (rows are matched on their own project).
 */
export function deploymentScopeOf(filters: ReleaseListFilters): DeploymentListParams {
  return filters.project_id === undefined ? {} : { project_id: filters.project_id };
}
