import { useCallback, useEffect, useState } from 'react';

/**
 * Infinite scroll: returns a ref for the card that should trigger the next page (the
 * second-to-last) and calls `loadMore` while that card is in view and `canLoad` holds.
 *
 * Visibility is remembered per card (`sentinelKey`), so a page that has just arrived never
 * counts the previous trigger card as the new one's visibility.
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
