import type { HomeFeed } from '@techit/contract/enums';
import { ConfigProvider } from 'antd';
import { useContext } from 'react';
import { ButtonLink } from '../../../components/button-link';
import { paths } from '../../../config/paths';

/**
 * For you / Following / Hot / Your tags: real links (/, /?feed=following, /?feed=hot, /?feed=tags),
 * the current one marked. Joined as
 * Ant Design's Space.Compact joins buttons (the classes it gives them; the button styles carry
 * the rules), without Space's code and style sheet in the home page's first download.
 */
export function FeedToggle({ feed }: { feed: HomeFeed }) {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const item = `${getPrefixCls('btn')}-compact-item`;
  return (
    <nav aria-label="Feeds">
      <div className="feed-toggle">
        <ButtonLink
          to={paths.home}
          type={feed === 'for-you' ? 'primary' : 'default'}
          aria-current={feed === 'for-you' ? 'page' : undefined}
          className={`${item} ${getPrefixCls('btn')}-compact-first-item`}
          style={{ flex: 1 }}
        >
          For you
        </ButtonLink>
        <ButtonLink
          to={paths.following}
          type={feed === 'following' ? 'primary' : 'default'}
          aria-current={feed === 'following' ? 'page' : undefined}
          className={item}
          style={{ flex: 1 }}
        >
          Following
        </ButtonLink>
        <ButtonLink
          to={paths.hot}
          type={feed === 'hot' ? 'primary' : 'default'}
          aria-current={feed === 'hot' ? 'page' : undefined}
          className={item}
          style={{ flex: 1 }}
        >
          Hot
        </ButtonLink>
        <ButtonLink
          to={paths.yourTags}
          type={feed === 'tags' ? 'primary' : 'default'}
          aria-current={feed === 'tags' ? 'page' : undefined}
          className={`${item} ${getPrefixCls('btn')}-compact-last-item`}
          style={{ flex: 1 }}
        >
          Your tags
        </ButtonLink>
      </div>
    </nav>
  );
}
