import type { Project } from '../../api/queries/projects';
import { formatUtcDate, formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { KeyIcon } from '../../ui/icons';
import styles from './projects.module.css';

const roleLabel: Record<Project['role'], string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

function canManage(project: Project): boolean {
  return project.role === 'owner' || project.role === 'admin';
}

export function ProjectsTable({
  projects,
  organizationName,
  onCreateIngestKey,
  ingestKeyGate,
}: {
  projects: Project[];
  /** The id of the text saying why no key may be made for the organization's projects, or null. */
  ingestKeyGate: (organizationId: string) => string | null;
  /** Given when the account belongs to several organizations: adds an Organization column. */
  organizationName: ((organizationId: string) => string) | undefined;
  onCreateIngestKey: (project: Project) => void;
}) {
  return (
    <div className={styles.panel}>
      <table className={styles.table} aria-label="Projects">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Slug</th>
            {organizationName && <th scope="col">Organization</th>}
            <th scope="col">Your role</th>
            <th scope="col">Created</th>
            <th scope="col" className={styles.actionsHead}>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {projects.map((project) => {
            const gate = ingestKeyGate(project.organization_id);
            return (
              <tr key={project.id}>
                <td className={styles.nameCell} id={`project-name-${project.id}`}>
                  {project.name}
                </td>
                <td>
                  <code className={styles.slug}>{project.slug}</code>
                </td>
                {organizationName && <td>{organizationName(project.organization_id)}</td>}
                <td>
                  <span className={`${styles.role} ${styles[`role_${project.role}`]}`}>
                    {roleLabel[project.role]}
                  </span>
                </td>
                <td className={styles.date}>
                  <time dateTime={project.created_at} title={formatUtcDateTime(project.created_at)}>
                    {formatUtcDate(project.created_at)}
                  </time>
                </td>
                <td className={styles.actionsCell}>
                  {canManage(project) && (
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={gate !== null}
                      aria-describedby={[`project-name-${project.id}`, gate]
                        .filter((id) => id !== null)
                        .join(' ')}
                      onClick={() => onCreateIngestKey(project)}
                    >
                      <KeyIcon />
                      Create ingest key
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
