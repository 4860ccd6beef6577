import type { Feed } from '@techit/contract/enums';
import { Space } from 'antd';
import { ButtonLink } from '../../../components/button-link';
import { paths } from '../../../config/paths';

/** For you / Following: two real links (/ and /?feed=following), the current one marked. */
export function FeedToggle({ feed }: { feed: Feed }) {
  return (
    <nav aria-label="Feeds">
      <Space.Compact block>
        <ButtonLink
          to={paths.home}
          type={feed === 'for-you' ? 'primary' : 'default'}
          aria-current={feed === 'for-you' ? 'page' : undefined}
          style={{ flex: 1 }}
        >
          For you
        </ButtonLink>
        <ButtonLink
          to={paths.following}
          type={feed === 'following' ? 'primary' : 'default'}
          aria-current={feed === 'following' ? 'page' : undefined}
          style={{ flex: 1 }}
        >
          Following
        </ButtonLink>
      </Space.Compact>
    </nav>
  );
}
