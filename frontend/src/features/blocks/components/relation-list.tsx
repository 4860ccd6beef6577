import { Button, Skeleton, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { LoadMoreButton } from '../../../components/load-more-button';
import { RelativeTime } from '../../../components/relative-time';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import type { RelationKind } from '../api/block-paths';
import { useRelationChange, useRelationList } from '../api/relations';
import './blocks.css';

const WORDS = {
  blocks: { empty: 'You block nobody.', undo: 'Unblock', since: 'Blocked' },
  mutes: { empty: 'You mute nobody.', undo: 'Unmute', since: 'Muted' },
} as const;

/** The reader's blocked (or muted) users, newest first, each with Unblock (Unmute); "Load more" pages on. */
export function RelationList({ kind }: { kind: RelationKind }) {
  const list = useRelationList(kind);
  const undo = useRelationChange(kind === 'blocks' ? 'unblock' : 'unmute');
  const words = WORDS[kind];
  if (!list.data) return list.isError ? null : <Skeleton active avatar paragraph={{ rows: 1 }} />;
  const users = list.data.pages.flatMap((page) => page.users);
  if (users.length === 0) return <Typography.Paragraph type="secondary">{words.empty}</Typography.Paragraph>;
  return (
    <>
      <ul className="plain-list relation-list" aria-label={kind === 'blocks' ? 'Blocked users' : 'Muted users'}>
        {users.map((user) => (
          <li key={user._id} className="relation-item">
            <UserAvatar pic={user.pic} userName={user.userName} size={36} />
            <div className="relation-text">
              <Link to={paths.profile(user._id)}>{user.userName}</Link>
              <span className="secondary-text">
                {words.since} <RelativeTime dateTime={user.since} />
              </span>
            </div>
            <Button
              aria-label={`${words.undo} ${user.userName}`}
              loading={busy(undo.isPending && undo.variables === user._id)}
              onClick={() => undo.mutate(user._id)}
            >
              {words.undo}
            </Button>
          </li>
        ))}
      </ul>
      <LoadMoreButton pages={list} />
    </>
  );
}
