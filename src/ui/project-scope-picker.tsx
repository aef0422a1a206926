import { useId, useState } from 'react';
import {
  ALL_PROJECTS,
  isSelected,
  MAX_SCOPE_PROJECTS,
  scopeLabel,
  toggleProject,
  type ProjectScope,
} from '../lib/project-scope';
import { FolderIcon, SearchIcon } from './icons';
import { PickerPopover } from './picker-popover';
import popover from './popover.module.css';
import styles from './project-scope-picker.module.css';

export type ScopeProject = { id: string; name: string; slug: string };

/** Above this many projects the picker offers a search box. */
const SEARCH_THRESHOLD = 8;

/** Chooses one project, several, or all readable projects. Changes apply at once. */
export function ProjectScopePicker({
  projects,
  value,
  onChange,
}: {
  projects: readonly ScopeProject[];
  value: ProjectScope;
  onChange: (scope: ProjectScope) => void;
}) {
  const label = scopeLabel(value, projects);
  return (
    <PickerPopover
      name="Project scope"
      label={label}
      icon={<FolderIcon />}
      panelClassName={styles.panel}
    >
      <ScopeList projects={projects} value={value} onChange={onChange} />
    </PickerPopover>
  );
}

function ScopeList({
  projects,
  value,
  onChange,
}: {
  projects: readonly ScopeProject[];
  value: ProjectScope;
  onChange: (scope: ProjectScope) => void;
}) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? projects.filter(
        (p) => p.name.toLowerCase().includes(needle) || p.slug.toLowerCase().includes(needle),
      )
    : projects;
  const full = value.kind === 'projects' && value.ids.length >= MAX_SCOPE_PROJECTS;

  return (
    <>
      {projects.length > SEARCH_THRESHOLD && (
        <div className={styles.search}>
          <SearchIcon className={styles.searchIcon} />
          <input
            type="search"
            aria-label="Search projects"
            placeholder="Search projects"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            autoFocus
          />
        </div>
      )}
      <label className={styles.row}>
        <input
          type="checkbox"
          aria-label="All projects"
          checked={value.kind === 'all'}
          onChange={() => onChange(ALL_PROJECTS)}
        />
        <span className={styles.name}>All projects</span>
        <span className={styles.meta} aria-hidden="true">
          {projects.length}
        </span>
      </label>
      <div className={popover.separator} />
      <p className={popover.sectionLabel} id={`${id}-label`}>
        Projects
      </p>
      <ul className={styles.list} aria-labelledby={`${id}-label`}>
        {shown.map((p) => {
          const checked = isSelected(value, p.id);
          return (
            <li key={p.id}>
              <label className={styles.row}>
                <input
                  type="checkbox"
                  aria-label={p.name}
                  checked={checked}
                  disabled={!checked && full}
                  onChange={() => onChange(toggleProject(value, p.id))}
                />
                <span className={styles.name}>{p.name}</span>
                <span className={styles.slug}>{p.slug}</span>
              </label>
            </li>
          );
        })}
        {shown.length === 0 && <li className={styles.none}>No project matches “{filter}”.</li>}
      </ul>
      <p className={styles.footer}>
        {value.kind === 'all'
          ? 'Every project you can read, including new ones.'
          : `${value.ids.length} of ${projects.length} selected${full ? ` (at most ${MAX_SCOPE_PROJECTS})` : ''}.`}
      </p>
    </>
  );
}
