import { useEffect, useState } from 'react';

/**
 * Infinite scroll: returns a callback ref for the list item that, once scrolled into view, asks
 * for the next page (the spec puts it on the second-to-last item). Nothing is observed while a
 * page is loading or when there is no next page.
 */
export function useLoadMore(
  hasMore: boolean,
  loading: boolean,
  loadMore: () => void,
): (node: HTMLElement | null) => void {
  const [node, setNode] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!node || !hasMore || loading) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [node, hasMore, loading, loadMore]);
  return setNode;
}
