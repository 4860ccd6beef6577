import { UserOutlined } from '@ant-design/icons';
import { Avatar } from 'antd';

interface UserAvatarProps {
  pic: string | undefined;
  userName: string;
  size?: number;
}

/** A user's picture at avatar size, with their name as its text alternative. */
export function UserAvatar({ pic, userName, size = 40 }: UserAvatarProps) {
  return (
    <Avatar
      size={size}
      src={pic ? <img src={pic} alt={userName} width={size} height={size} /> : undefined}
      icon={pic ? undefined : <UserOutlined />}
      alt={userName}
    />
  );
}
