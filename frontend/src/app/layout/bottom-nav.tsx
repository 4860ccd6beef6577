import { HomeOutlined, PushpinOutlined, MenuOutlined, PlusSquareOutlined, SearchOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { NavLink, useNavigate } from 'react-router-dom';
import { UserAvatar } from '../../components/user-avatar';
import { paths } from '../../config/paths';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { useSession } from '../../lib/session';
import { useNavActions } from './nav-actions';
import { NavMenu } from './nav-menu';

/**
 * Small screens: the same places as icons along the bottom edge, with Search (the left bar's box)
 * among them; the feeds and Bookmarks are in the menu.
 */
export function BottomNav() {
  const navigate = useNavigate();
  const { user, themeLabel, toggleTheme, guardCreate, logout, logoutAll, login } = useNavActions();
  const { canModerate } = useSession();
  return (
    <nav className="bottom-nav" aria-label="Main">
      <NavLink to={paths.home} end className="bottom-nav-item" aria-label="Home">
        <HomeOutlined aria-hidden />
      </NavLink>
      <NavLink to={paths.notices} className="bottom-nav-item" aria-label="Notices">
        <PushpinOutlined aria-hidden />
      </NavLink>
      {/* The search page's box takes focus when opened from here, with nothing searched yet. */}
      <NavLink to={paths.search()} className="bottom-nav-item" aria-label="Search">
        <SearchOutlined aria-hidden />
      </NavLink>
      <NavLink to={paths.createPost} className="bottom-nav-item" aria-label="Create post" onClick={guardCreate}>
        <PlusSquareOutlined aria-hidden />
      </NavLink>
      {user && <NotificationBell variant="bottom" />}
      <NavMenu
        placement="topRight"
        items={[
          { key: 'for-you', label: 'For You Feed', onClick: () => void navigate(paths.home) },
          { key: 'following', label: 'Following Feed', onClick: () => void navigate(paths.following) },
          { key: 'hot', label: 'Hot Feed', onClick: () => void navigate(paths.hot) },
          ...(user ? [{ key: 'tags', label: 'Your Tags Feed', onClick: () => void navigate(paths.yourTags) }] : []),
          // Here rather than in the bar: eight icons of 48 px are wider than a 360 px phone.
          ...(user ? [{ key: 'bookmarks', label: 'Bookmarks', onClick: () => void navigate(paths.bookmarks()) }] : []),
          ...(user ? [{ key: 'settings', label: 'Settings', onClick: () => void navigate(paths.settings) }] : []),
          ...(canModerate ? [{ key: 'admin', label: 'Admin', onClick: () => void navigate(paths.admin()) }] : []),
          { key: 'moderation-log', label: 'Moderation log', onClick: () => void navigate(paths.moderationLog) },
          { key: 'theme', label: themeLabel, onClick: toggleTheme },
          user ? { key: 'logout', label: 'Logout', onClick: logout } : { key: 'login', label: 'Login', onClick: login },
          ...(user ? [{ key: 'logout-all', label: 'Sign out of all devices', onClick: logoutAll }] : []),
        ]}
      >
        <Button type="text" className="bottom-nav-item" aria-label="Menu" icon={<MenuOutlined aria-hidden />} />
      </NavMenu>
      {user && (
        <NavLink to={paths.profile(user._id)} className="bottom-nav-item" aria-label="Your profile">
          <UserAvatar pic={user.pic} userName={user.userName} size={28} />
        </NavLink>
      )}
    </nav>
  );
}
