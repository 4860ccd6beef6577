import { Button } from 'antd';
import { busy } from '../lib/busy';

/** What of an infinite query the button needs (TanStack Query's useInfiniteQuery result has it). */
export interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The "Load more" of the lists that page on only when asked (moderation, notifications, blocks
 * and mutes): shown while there is a next page, busy while it comes.
 */
export function LoadMoreButton({ pages, className }: { pages: MorePages; className?: string }) {
  if (!pages.hasNextPage) return null;
  return (
    <Button className={className} onClick={() => void pages.fetchNextPage()} loading={busy(pages.isFetchingNextPage)}>
      Load more
    </Button>
  );
}
