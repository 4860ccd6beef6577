import { DeleteOutlined, LinkOutlined } from '@ant-design/icons';
import type { Notice } from '@techit/contract/api-types';
import { isHttpUrl, linkHost } from '@techit/contract/url-rules';
import { Button, Typography } from 'antd';
import { Card } from '../../../components/surface-card';
import { Link } from 'react-router-dom';
import { RelativeTime } from '../../../components/relative-time';
import { isRemovedPlaceholder, RemovedBadge, RemovedPlaceholder } from '../../../components/removed-content';
import { RenderedMarkdown } from '../../../components/rendered-markdown';
import { ReportButton } from '../../../components/report-button';
import { UserAvatar } from '../../../components/user-avatar';
import { paths } from '../../../config/paths';
import { confirm, notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useDeleteNotice } from '../api/delete-notice';
import './notices.css';

/** One notice: its author, its text, and its links numbered 'Link 1 · example.com', 'Link 2 · …', … */
export function NoticeCard({ notice }: { notice: Notice }) {
  const { user, isAdmin } = useSession();
  const canDelete = !!user && (user._id === notice.postedBy._id || isAdmin);
  const links = notice.links.filter(isHttpUrl);
  if (isRemovedPlaceholder(notice)) {
    return (
      <Card className="notice-card">
        <article aria-label="Notice removed by the moderators" className="notice-card-removed">
          <Typography.Text type="secondary" className="notice-card-date">
            <RelativeTime dateTime={notice.createdAt} />
          </Typography.Text>
          <RemovedPlaceholder />
        </article>
      </Card>
    );
  }
  return (
    <Card className="notice-card">
      <article aria-label={`Notice by ${notice.postedBy.userName}`}>
        <header className="notice-card-header">
          <Link to={paths.profile(notice.postedBy._id)} className="notice-card-author">
            <UserAvatar pic={notice.postedBy.pic} userName={notice.postedBy.userName} size={36} />
            <Typography.Text strong>{notice.postedBy.userName}</Typography.Text>
          </Link>
          <Typography.Text type="secondary" className="notice-card-date">
            <RelativeTime dateTime={notice.createdAt} />
          </Typography.Text>
          {notice.removed && <RemovedBadge />}
          <span className="notice-card-actions">
            <ReportButton
              targetKind="notice"
              targetId={notice._id}
              authorId={notice.postedBy._id}
              label={`notice by ${notice.postedBy.userName}`}
            />
            {canDelete && <DeleteNoticeButton noticeId={notice._id} />}
          </span>
        </header>
        <RenderedMarkdown html={notice.descHtml} className="notice-card-desc" />
        {links.length > 0 && (
          <ul className="plain-list notice-card-links" aria-label="Links">
            {links.map((href, index) => (
              <li key={`${index}-${href}`}>
                <a href={href} target="_blank" rel="noopener noreferrer" title={href}>
                  <LinkOutlined aria-hidden /> {`Link ${index + 1} · ${linkHost(href)}`}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </article>
    </Card>
  );
}

function DeleteNoticeButton({ noticeId }: { noticeId: string }) {
  const deletion = useDeleteNotice();
  // Always resolves, so the confirmation closes either way; a failure is told by the mutation's
  // errorToast (lib/query-client.ts).
  const remove = () =>
    deletion.mutateAsync(noticeId).then(
      () => notify.success('Deleted notice'),
      () => undefined,
    );
  // A real dialog (not a popover) so that keyboard users land in it and return from it.
  const ask = (): void => {
    confirm({
      title: 'Delete notice',
      content: 'Are you sure you want to delete this notice?',
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      // A destructive action: Enter right away cancels rather than deletes.
      focusable: { autoFocusButton: 'cancel' },
      onOk: remove,
    });
  };
  return (
    <Button
      type="text"
      danger
      size="small"
      className="notice-card-delete"
      icon={<DeleteOutlined aria-hidden />}
      aria-label="Delete notice"
      onClick={ask}
    >
      Delete
    </Button>
  );
}
