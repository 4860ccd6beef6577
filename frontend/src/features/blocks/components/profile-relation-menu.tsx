import { EllipsisOutlined, EyeInvisibleOutlined, EyeOutlined, StopOutlined } from '@ant-design/icons';
import type { ProfileViewer } from '@techit/contract/api-types';
import { Button, Dropdown, type MenuProps } from 'antd';
import { confirm, notify } from '../../../lib/notify';
import { useRelationChange } from '../api/relations';

interface ProfileRelationMenuProps {
  userId: string;
  userName: string;
  /** The reader's block and mute of this user, as GET /api/user/:id answered them. */
  viewer: ProfileViewer;
}

/**
 * The "⋯" menu beside Follow on another user's profile: Block or Unblock, Mute or Unmute
 * (docs/decisions/048-blocks-and-mutes.md). Blocking asks first and says what it does; the others
 * are undone as easily as done, so they just happen. Failures are each mutation's toast.
 */
export function ProfileRelationMenu({ userId, userName, viewer }: ProfileRelationMenuProps) {
  const block = useRelationChange('block');
  const unblock = useRelationChange('unblock');
  const mute = useRelationChange('mute');
  const unmute = useRelationChange('unmute');
  const busy = block.isPending || unblock.isPending || mute.isPending || unmute.isPending;

  const items: MenuProps['items'] = [
    viewer.blocks
      ? { key: 'unblock', icon: <StopOutlined aria-hidden />, label: `Unblock ${userName}` }
      : { key: 'block', icon: <StopOutlined aria-hidden />, label: `Block ${userName}` },
    viewer.mutes
      ? { key: 'unmute', icon: <EyeOutlined aria-hidden />, label: `Unmute ${userName}` }
      : { key: 'mute', icon: <EyeInvisibleOutlined aria-hidden />, label: `Mute ${userName}` },
  ];

  const done = (promise: Promise<unknown>, text: string) =>
    void promise.then(
      () => notify.success(text),
      () => undefined,
    );

  const confirmBlock = () =>
    confirm({
      title: `Block ${userName}?`,
      content: (
        <p>
          They will no longer be able to follow you, comment on or reply to your posts and comments, like your posts or
          mention you. If either of you follows the other, that follow ends. They are not told.
        </p>
      ),
      okText: 'Block',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      focusable: { autoFocusButton: 'cancel' },
      onOk: () =>
        block.mutateAsync(userId).then(
          () => notify.success(`You blocked ${userName}`),
          () => undefined,
        ),
    });

  const choose: MenuProps['onClick'] = ({ key, domEvent }) => {
    // Chosen with Enter: the key's keypress must not land in the dialog that takes the focus.
    if (domEvent.type === 'keydown') domEvent.preventDefault();
    if (busy) return;
    if (key === 'block') confirmBlock();
    else if (key === 'unblock') done(unblock.mutateAsync(userId), `You unblocked ${userName}`);
    else if (key === 'mute')
      done(mute.mutateAsync(userId), `You muted ${userName}: their posts and comments are hidden from you`);
    else if (key === 'unmute') done(unmute.mutateAsync(userId), `You unmuted ${userName}`);
  };

  return (
    <Dropdown menu={{ items, onClick: choose }} trigger={['click']} autoFocus>
      <Button icon={<EllipsisOutlined aria-hidden />} aria-label={`More actions for ${userName}`} aria-busy={busy} />
    </Dropdown>
  );
}
