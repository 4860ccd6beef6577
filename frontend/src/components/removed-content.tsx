import { StopOutlined } from '@ant-design/icons';
import { REMOVED_AUTHOR } from '@techit/contract/api-types';
import { Tag } from './surface-tag';
import './removed-content.css';

/**
 * What the API sends in place of a comment or notice the moderators removed, to anyone but its
 * author and the moderators (docs/decisions/047-moderation.md): no text, REMOVED_AUTHOR.
 */
export function isRemovedPlaceholder(item: { removed?: boolean; postedBy: { userName: string } }): boolean {
  return item.removed === true && item.postedBy.userName === REMOVED_AUTHOR.userName;
}

/** Stands in place of removed content: muted, with no author and nothing to follow. */
export function RemovedPlaceholder({ className }: { className?: string }) {
  return (
    <p className={className ? `removed-placeholder ${className}` : 'removed-placeholder'}>removed by the moderators</p>
  );
}

/** On removed content its author and the moderators still read whole. */
export function RemovedBadge() {
  return (
    <Tag color="red">
      <StopOutlined aria-hidden /> Removed by the moderators
    </Tag>
  );
}
