import { useCallback, useEffect, useState } from 'react';

/**
 * Infinite scroll for every paged list (post feeds, notices): returns a ref for the item that
 * should trigger the next page (the spec puts it on the second-to-last) and calls `loadMore` while
 * that item is in view and `canLoad` holds. `sentinelKey` names the item (null: nothing to load).
 *
 * Visibility is remembered per item, so a page that has just arrived never counts the previous
 * trigger item as the new one's visibility.
 */
export function useLoadMore(sentinelKey: string | null, canLoad: boolean, loadMore: () => void) {
  const [visibleKey, setVisibleKey] = useState<string | null>(null);

  const sentinelRef = useCallback(
    (node: HTMLElement | null) => {
      if (!node || sentinelKey === null) return;
      const observer = new IntersectionObserver((entries) => {
        const visible = entries.some((entry) => entry.isIntersecting);
        setVisibleKey((current) => (visible ? sentinelKey : current === sentinelKey ? null : current));
      });
      observer.observe(node);
      return () => observer.disconnect();
    },
    [sentinelKey],
  );

  useEffect(() => {
    if (canLoad && sentinelKey !== null && visibleKey === sentinelKey) loadMore();
  }, [canLoad, sentinelKey, visibleKey, loadMore]);

  return sentinelRef;
}
