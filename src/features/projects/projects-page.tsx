import { useState } from 'react';
import { managedOrganizations, type Account } from '../../api/queries/account';
import type { Project } from '../../api/queries/projects';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { EmptyState } from '../../ui/empty-state';
import { FolderIcon, PlusIcon } from '../../ui/icons';
import { useDocumentTitle } from '../../ui/use-document-title';
import { IngestKeyDialog } from './ingest-key-dialog';
import { NewProjectDialog } from './new-project-dialog';
import styles from './projects.module.css';
import { ProjectsTable } from './projects-table';

/** The projects the account can read, creating projects, and creating ingest keys. */
export function ProjectsPage({ projects, account }: { projects: Project[]; account: Account }) {
  useDocumentTitle('Projects');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Project | null>(null);
  const [keyFor, setKeyFor] = useState<Project | null>(null);
  const managed = managedOrganizations(account);
  const canCreate = managed.length > 0;
  const organizations = new Map(account.organizations.map((o) => [o.id, o.name]));
  const showOrganization = account.organizations.length > 1;

  const newProjectButton = (
    <Button variant="primary" onClick={() => setCreating(true)} disabled={!canCreate}>
      <PlusIcon />
      New project
    </Button>
  );

  return (
    <div className={styles.page}>
      <div className={styles.pageHeader}>
        <div>
          <h1 className={styles.title}>Projects</h1>
          <p className={styles.subtitle}>
            {projects.length === 1
              ? '1 project your account can read.'
              : `${projects.length} projects your account can read.`}
            {!canCreate && ' Only organization owners and admins can create projects.'}
          </p>
          <p className={styles.subtitle}>
            Organizations:{' '}
            {account.organizations.length === 0
              ? 'none'
              : account.organizations.map((o) => `${o.name} (${o.role})`).join(', ')}
          </p>
        </div>
        {newProjectButton}
      </div>

      {created && (
        <Callout tone="success" role="status">
          <span>
            Project <strong>{created.name}</strong> created.{' '}
            <button
              type="button"
              className={styles.inlineAction}
              onClick={() => setKeyFor(created)}
            >
              Create an ingest key for it
            </button>
          </span>
        </Callout>
      )}

      {projects.length === 0 ? (
        <div className={styles.panel}>
          <EmptyState
            icon={<FolderIcon />}
            title="No projects yet"
            action={canCreate ? newProjectButton : undefined}
          >
            {canCreate
              ? 'A project collects the errors, logs, traces and product actions of one application. Create one, then send telemetry to it with an ingest key.'
              : 'You are not a member of any project. Ask an owner or admin of your organization to create one or to give you access.'}
          </EmptyState>
        </div>
      ) : (
        <ProjectsTable
          projects={projects}
          organizationName={showOrganization ? (id) => organizations.get(id) ?? '—' : undefined}
          onCreateIngestKey={setKeyFor}
        />
      )}

      <NewProjectDialog
        open={creating}
        onOpenChange={setCreating}
        organizations={managed}
        onCreated={(project) => {
          setCreating(false);
          setCreated(project);
        }}
      />
      <IngestKeyDialog project={keyFor} onClose={() => setKeyFor(null)} />
    </div>
  );
}
