import { useEffect } from 'react';

/** Sets the tab title to `<page> · Lookout` while the page is shown. */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} · Lookout`;
  }, [page]);
}
