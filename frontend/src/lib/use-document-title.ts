import { useEffect } from 'react';

/** Every page names itself in the tab (and for screen readers announcing the page). */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · TechIt`;
  }, [title]);
}
