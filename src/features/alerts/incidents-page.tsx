import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { projectsQueries } from '../../api/queries/projects';
import { oneProjectChoices, oneProjectOf, scopeIsOneProject } from '../../lib/one-project';
import { EmptyState } from '../../ui/empty-state';
import { BellIcon } from '../../ui/icons';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { OneProjectPicker } from '../../ui/one-project-picker';
import { useDocumentTitle } from '../../ui/use-document-title';
import { AlertsFrame } from './alerts-frame';
import styles from './alerts-page.module.css';
import tables from './alerts-tables.module.css';
import { PROJECTS_LISTED } from './projects-listed';
import { IncidentTable } from './incident-table';

const route = getRouteApi('/_app/alerts/history');

const STATES = [
  { value: 'all', label: 'All' },
  { value: 'firing', label: 'Firing' },
  { value: 'resolved', label: 'Resolved' },
] as const;

/**
 * `/alerts/history`: every incident of the project's rules, newest first, firing or resolved,
 * each with the value that fired it and a link to the view at that moment; with several
 * projects in scope and none picked, each project's incidents under its name.
 */
export function IncidentsPage() {
  useDocumentTitle('Alert history');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readable = projects.map((p) => p.id);
  const projectId = oneProjectOf(search, search.alert_project, readable);
  const choices = oneProjectChoices(search, projects);
  return (
    <AlertsFrame
      title="Alerts"
      subtitle="Each incident: when a rule started firing, the value that fired it, the view at that moment, and when it resolved. Times are UTC."
    >
      <div className={styles.controls}>
        {!scopeIsOneProject(search, readable) && (
          <OneProjectPicker
            choices={choices}
            value={projectId}
            allLabel="Every project in scope"
            onChange={(id) => void navigate({ search: (prev) => ({ ...prev, alert_project: id }) })}
          />
        )}
        <SegmentedChoice
          label="Incident state"
          caption="State"
          value={search.state ?? 'all'}
          options={STATES}
          onChange={(state) =>
            void navigate({
              search: (prev) => ({ ...prev, state: state === 'all' ? undefined : state }),
            })
          }
        />
      </div>
      {projectId === null ? (
        choices.length === 0 ? (
          <EmptyState icon={<BellIcon />} title="No project in scope">
            Incidents belong to a project’s rules. Select a project in the header.
          </EmptyState>
        ) : (
          <div className={tables.groups}>
            {choices.slice(0, PROJECTS_LISTED).map((p) => (
              <section key={p.id} className={tables.group} aria-label={`Incidents of ${p.name}`}>
                <h2 className={tables.groupTitle}>{p.name}</h2>
                <IncidentTable
                  filters={{
                    project_id: p.id,
                    ...(search.state ? { state: search.state } : {}),
                    ...(search.rule ? { rule_id: search.rule } : {}),
                  }}
                  compact
                  emptyText={
                    search.rule
                      ? 'No incident of the chosen rule in this project.'
                      : search.state === 'firing'
                        ? 'Nothing is firing in this project.'
                        : 'No rule of this project has fired yet.'
                  }
                />
              </section>
            ))}
            {choices.length > PROJECTS_LISTED && (
              <p className={tables.note} role="status">
                {choices.length - PROJECTS_LISTED} more projects are in scope: choose one in the
                Project field to see its incidents.
              </p>
            )}
          </div>
        )
      ) : (
        <IncidentTable
          filters={{
            project_id: projectId,
            ...(search.state ? { state: search.state } : {}),
            ...(search.rule ? { rule_id: search.rule } : {}),
          }}
          emptyText={
            search.state === 'firing'
              ? 'Nothing is firing. Incidents appear here when a rule’s value passes its threshold.'
              : 'No rule has fired yet. When one does, its incident appears here, and again when it resolves.'
          }
        />
      )}
    </AlertsFrame>
  );
}
