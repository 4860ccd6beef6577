import { UserOutlined } from '@ant-design/icons';
// The Avatar alone: the package's index also brings Avatar.Group with its Popover and Tooltip.
import Avatar from 'antd/es/avatar/Avatar';
import { imageVariant } from '@techit/contract/image-variants';

interface UserAvatarProps {
  pic: string | undefined;
  userName: string;
  size?: number;
}

/**
 * A user's picture at avatar size (the square avatar variant when the URL has one), with their
 * name as its text alternative. The box is always size × size and the picture covers it, so a
 * picture of unknown shape (older uploads, other sites, the default SVG) cannot shift the layout.
 */
export function UserAvatar({ pic, userName, size = 40 }: UserAvatarProps) {
  return (
    <Avatar
      size={size}
      src={
        pic ? (
          <img
            src={imageVariant(pic, 'avatar').src}
            alt={userName}
            width={size}
            height={size}
            loading="lazy"
            decoding="async"
          />
        ) : undefined
      }
      icon={pic ? undefined : <UserOutlined />}
      alt={userName}
    />
  );
}
