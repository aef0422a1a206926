import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { managedOrganizations, type Account } from '../../api/queries/account';
import type { Project } from '../../api/queries/projects';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { EmptyState } from '../../ui/empty-state';
import { FolderIcon, PlusIcon } from '../../ui/icons';
import { useDocumentTitle } from '../../ui/use-document-title';
import {
  ingestKeyGateSentence,
  projectGateSentence,
} from '../../widgets/plan-standing/organization-gate-text';
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
  const gateId = useId();
  const managed = managedOrganizations(account);
  // Each organization follows its owner's plan; the service says beforehand what it refuses.
  const open = managed.filter((o) => projectGateSentence(o) === null);
  const gated = managed.filter(
    (o) => projectGateSentence(o) !== null || ingestKeyGateSentence(o) !== null,
  );
  const canCreate = open.length > 0;
  const organizations = new Map(account.organizations.map((o) => [o.id, o.name]));
  const keyGateOf = (organizationId: string) => {
    const o = managed.find((m) => m.id === organizationId);
    return o && ingestKeyGateSentence(o) !== null ? `${gateId}-${o.id}` : null;
  };
  const showOrganization = account.organizations.length > 1;

  const newProjectButton = (
    <Button
      variant="primary"
      onClick={() => setCreating(true)}
      disabled={!canCreate}
      aria-describedby={!canCreate && gated.length > 0 ? gateId : undefined}
    >
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
            {managed.length === 0 && ' Only organization owners and admins can create projects.'}
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

      {gated.length > 0 && (
        <Callout
          tone="warning"
          title={
            canCreate
              ? 'Some of your organizations cannot take new projects or keys now'
              : 'New projects are not available now'
          }
        >
          <ul id={gateId} className={styles.gateList}>
            {gated.map((o) => (
              <li key={o.id} id={`${gateId}-${o.id}`}>
                {projectGateSentence(o) ?? ingestKeyGateSentence(o)}
                {o.plan && (
                  <span className={styles.gateNext}>
                    <span className={styles.gateNextLabel}>From the service: </span>
                    {o.plan.next}
                  </span>
                )}
              </li>
            ))}
          </ul>
          <p>
            <Link to="/plan">See the plan and its limits</Link>
          </p>
        </Callout>
      )}

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
          ingestKeyGate={keyGateOf}
        />
      )}

      <NewProjectDialog
        open={creating}
        onOpenChange={setCreating}
        organizations={open}
        onCreated={(project) => {
          setCreating(false);
          setCreated(project);
        }}
      />
      <IngestKeyDialog project={keyFor} onClose={() => setKeyFor(null)} />
    </div>
  );
}
