import type { ModerationLogEntry } from '@techit/contract/api-types';
import { Empty, Spin } from 'antd';
import { Link } from 'react-router-dom';
import { LoadMoreButton } from '../../../components/load-more-button';
import { RelativeTime } from '../../../components/relative-time';
import { Card } from '../../../components/surface-card';
import { paths } from '../../../config/paths';
import { useModerationLog } from '../api/get-moderation-log';
import { ACTION_LABELS, KIND_LABELS } from './moderation-labels';

/**
 * The public moderation log, newest first, with "Load more": time, action, target and reason; the
 * moderator only when the API names them (to moderators and admins).
 */
export function ModerationLogList() {
  const log = useModerationLog();
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  if (log.isPending) return <Spin className="moderation-loading" />;
  if (entries.length === 0) return <Empty description="Nothing has been moderated yet" />;
  return (
    <div className="moderation-section">
      <ul className="plain-list moderation-cards" aria-label="Moderation log">
        {entries.map((entry) => (
          <li key={entry._id}>
            <LogEntryCard entry={entry} />
          </li>
        ))}
      </ul>
      <LoadMoreButton pages={log} className="moderation-more" />
    </div>
  );
}

function LogEntryCard({ entry }: { entry: ModerationLogEntry }) {
  // A post or a user can be opened; a removed post shows its removed screen. A comment or notice
  // is named only (the log entry does not say where it is).
  const kind = KIND_LABELS[entry.targetKind].toLowerCase();
  const href =
    entry.targetKind === 'post'
      ? paths.post(entry.targetId)
      : entry.targetKind === 'user'
        ? paths.profile(entry.targetId)
        : null;
  return (
    <Card className="log-entry">
      <p className="log-entry-head">
        <strong>{ACTION_LABELS[entry.action]}</strong> {href ? <Link to={href}>a {kind}</Link> : <span>a {kind}</span>}
        <span className="secondary-text">
          {' · '}
          <RelativeTime dateTime={entry.at} />
        </span>
      </p>
      <p className="log-entry-reason">
        <span className="secondary-text">Reason: </span>
        {entry.reason}
      </p>
      {entry.moderator && (
        <p className="log-entry-moderator secondary-text">
          by <Link to={paths.profile(entry.moderator._id)}>{entry.moderator.userName}</Link>
        </p>
      )}
    </Card>
  );
}
