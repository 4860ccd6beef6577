import { DEFAULT_FEED, HOME_FEEDS, type HomeFeed } from '@techit/contract/enums';
import { useSearchParams } from 'react-router-dom';
import { FeedLayout } from '../../features/posts/components/feed-layout';
import { FeedToggle } from '../../features/posts/components/feed-toggle';
import { PostFeed } from '../../features/posts/components/post-feed';
import { TopPosts } from '../../features/posts/components/top-posts';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';

function parseFeed(value: string | null): HomeFeed {
  return HOME_FEEDS.find((feed) => feed === value) ?? DEFAULT_FEED;
}

const HEADINGS: Record<HomeFeed, string> = {
  'for-you': 'For you',
  following: 'Following',
  hot: 'Hot',
  tags: 'Your tags',
};

/** / — the feed chosen by ?feed= (for-you by default), with the side panel on wide screens. */
export default function HomePage() {
  const [search] = useSearchParams();
  const feed = parseFeed(search.get('feed'));
  const { user } = useSession();
  const heading = HEADINGS[feed];
  useDocumentTitle(feed === 'for-you' ? 'Home' : `${heading} feed`);

  return (
    <FeedLayout
      heading={heading}
      aside={
        <>
          {user && <FeedToggle feed={feed} />}
          <TopPosts />
        </>
      }
    >
      <PostFeed source={{ kind: 'feed', feed }} />
    </FeedLayout>
  );
}
