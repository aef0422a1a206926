import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { projectsQueries } from '../../api/queries/projects';
import {
  toolConnectionQueries,
  type CreatedToolConnection,
} from '../../api/queries/tool-connections';
import { Button } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { KeyIcon, PlusIcon } from '../../ui/icons';
import { PendingState } from '../../ui/pending-state';
import { useDocumentTitle } from '../../ui/use-document-title';
import { ConnectAssistantPanel } from './connect-assistant-panel';
import { ConnectionsTable } from './connections-table';
import { NewConnectionDialog } from './new-connection-dialog';
import { RevealTokenDialog } from './reveal-token-dialog';
import styles from './tool-connections.module.css';

/**
 * Tool connections: read-only tokens the account gives a tool (a CI check, an assistant) for
 * some of its projects. Create (token shown once), see when each was last used, revoke.
 */
export function ToolConnectionsPage() {
  useDocumentTitle('Tool connections');
  const connections = useQuery(toolConnectionQueries.list());
  const projects = useQuery(projectsQueries.list());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToolConnection | null>(null);

  const newButton = (
    <Button
      variant="primary"
      onClick={() => setCreating(true)}
      disabled={!projects.isSuccess || projects.data.length === 0}
    >
      <PlusIcon />
      New connection
    </Button>
  );

  return (
    <div className={styles.page}>
      <div className={styles.pageHeader}>
        <div>
          <h1 className={styles.title}>Tool connections</h1>
          <p className={styles.subtitle}>
            A tool connection lets a tool read telemetry of the projects you choose, and nothing
            else: it cannot change anything, read other projects or use your account. Owners of an
            organization also see, and can revoke, the connections on its projects.
          </p>
        </div>
        {newButton}
      </div>

      {projects.isError && (
        <Callout
          tone="warning"
          title="Your projects could not be read, so no connection can be created now"
        >
          <ErrorState error={projects.error} reset={() => void projects.refetch()} compact />
        </Callout>
      )}

      {connections.isPending ? (
        <PendingState label="Loading tool connections…" />
      ) : connections.isError ? (
        <ErrorState error={connections.error} reset={() => void connections.refetch()} />
      ) : connections.data.length === 0 ? (
        <div className={styles.panel}>
          <EmptyState icon={<KeyIcon />} title="No tool connections yet" action={newButton}>
            Create one for a CI check or an assistant that investigates issues. You choose the
            projects it may read; it gets a token shown once.
          </EmptyState>
        </div>
      ) : (
        <ConnectionsTable connections={connections.data} />
      )}

      <ConnectAssistantPanel />

      {projects.isSuccess && (
        <NewConnectionDialog
          open={creating}
          onOpenChange={setCreating}
          projects={projects.data}
          onCreated={(connection) => {
            setCreating(false);
            setCreated(connection);
          }}
        />
      )}
      <RevealTokenDialog connection={created} onClose={() => setCreated(null)} />
    </div>
  );
}
