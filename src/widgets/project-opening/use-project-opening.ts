import { useCallback, useState } from 'react';
import type { OpenReason } from './choose-busiest-project';

/**
 * A page's opening on a project (see chooseBusiestProject): whether it may still
 * open one (once per visit: a person who clears the pick keeps it clear), the opening itself
 * (into the URL, through `openInUrl`), and the note saying which project was opened and why
 * while the page still shows it.
 */
export function useProjectOpening({
  projects,
  shownProject,
  fromScope,
  openInUrl,
  busiestReason,
  lastUsedReason = 'the project you last used here',
}: {
  projects: readonly { id: string; name: string }[];
  /** The project the page reads now, if any. */
  shownProject: string | null;
  /** The header's scope names the project itself: nothing was opened. */
  fromScope: boolean;
  openInUrl: (projectId: string) => void;
  /** Why the busiest project was opened, e.g. "the project with the most product actions". */
  busiestReason: string;
  lastUsedReason?: string;
}) {
  const [autoOpen, setAutoOpen] = useState(true);
  const [opened, setOpened] = useState<{ projectId: string; reason: OpenReason } | null>(null);
  const open = useCallback(
    (projectId: string, reason: OpenReason) => {
      setOpened({ projectId, reason });
      openInUrl(projectId);
    },
    [openInUrl],
  );
  const pickCleared = useCallback(() => setAutoOpen(false), []);
  const openedNote =
    opened !== null && opened.projectId === shownProject && !fromScope
      ? `Opened on ${projects.find((p) => p.id === opened.projectId)?.name ?? 'a project'}: ${
          opened.reason === 'last-used' ? lastUsedReason : busiestReason
        }. Choose another in the Project field.`
      : null;
  return { autoOpen, open, pickCleared, openedNote };
}
