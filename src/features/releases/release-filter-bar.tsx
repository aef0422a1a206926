import { Button } from '../../ui/button';
import { FilterInput } from '../../ui/filter-input';
import styles from './release-filter-bar.module.css';
import { clearedReleaseFilters, narrowingCount, type ReleasesPageSearch } from './releases-search';
import { useSetReleasesSearch } from './use-releases-search';

/** Exact service, release and environment (the project scope and range are in the header). */
export function ReleaseFilterBar({ search }: { search: ReleasesPageSearch }) {
  const setSearch = useSetReleasesSearch();
  return (
    <div className={styles.bar} role="search" aria-label="Release filters">
      <FilterInput
        label="Service"
        trim
        value={search.service}
        onCommit={(service) => setSearch({ service }, { replace: true })}
      />
      <FilterInput
        label="Release"
        trim
        value={search.release}
        onCommit={(release) => setSearch({ release }, { replace: true })}
      />
      <FilterInput
        label="Environment"
        trim
        value={search.environment}
        onCommit={(environment) => setSearch({ environment }, { replace: true })}
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
