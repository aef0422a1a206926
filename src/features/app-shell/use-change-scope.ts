import { useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { searchAfterScopeChange, type ScopePart } from '../../lib/scope-change';

/**
 * Changes one part of the header's scope on the page being read: the path and every search
 * key stay, except those the page's routes bind to that part (`staticData.scopeBound`).
 * The navigation starts from the current location, not from the layout that renders the
 * header (whose `.` is `/`).
 */
export function useChangeScope() {
  const router = useRouter();
  const navigate = useNavigate();
  return useCallback(
    (part: ScopePart, next: Readonly<Record<string, string | undefined>>) => {
      const bound = router.state.matches.map((match) => match.staticData.scopeBound);
      void navigate({
        to: '.',
        search: (prev: Record<string, unknown>) => searchAfterScopeChange(prev, part, next, bound),
      });
    },
    [navigate, router],
  );
}
