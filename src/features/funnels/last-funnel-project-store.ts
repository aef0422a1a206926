import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * The project the last funnel was read in, in this browser: the funnels page opens on it when
 * the header's scope holds several projects. Not a credential, only an id; an id the account
 * cannot read (another account signed in here since) is ignored by the page.
 */
type LastFunnelProjectState = {
  projectId: string | null;
  funnelProjectShown: (projectId: string) => void;
};

export const useLastFunnelProjectStore = create<LastFunnelProjectState>()(
  persist(
    (set) => ({
      projectId: null,
      funnelProjectShown: (projectId) => set({ projectId }),
    }),
    {
      name: 'lookout.funnels.last-project',
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ projectId: s.projectId }),
    },
  ),
);

export const useLastFunnelProject = () => useLastFunnelProjectStore((s) => s.projectId);
export const useFunnelProjectShown = () => useLastFunnelProjectStore((s) => s.funnelProjectShown);
