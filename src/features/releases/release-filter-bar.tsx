import { Button } from '../../ui/button';
import { ContextFilterInputs } from '../../ui/context-filter-inputs';
import styles from './release-filter-bar.module.css';
import { clearedReleaseFilters, narrowingCount, type ReleasesPageSearch } from './releases-search';
import { useSetReleasesSearch } from './use-releases-search';

/** Exact service, release and environment (the project scope and range are in the header). */
export function ReleaseFilterBar({ search }: { search: ReleasesPageSearch }) {
  const setSearch = useSetReleasesSearch();
  return (
    <div className={styles.bar} role="search" aria-label="Release filters">
      <ContextFilterInputs
        values={search}
        onCommit={(patch) => setSearch(patch, { replace: true })}
      />
      <span className={styles.hint}>Exact names</span>
      {narrowingCount(search) > 0 && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => setSearch((p) => clearedReleaseFilters(p))}
        >
          Clear filters
        </Button>
      )}
    </div>
  );
}
