import {
  AuditOutlined,
  BookOutlined,
  HomeOutlined,
  PushpinOutlined,
  LoginOutlined,
  LogoutOutlined,
  MenuOutlined,
  MoonOutlined,
  PlusSquareOutlined,
  SafetyOutlined,
  SettingOutlined,
  SunOutlined,
} from '@ant-design/icons';
import { UI } from '@techit/contract/limits';
import { Button } from 'antd';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { ButtonLink } from '../../components/button-link';
import { UserAvatar } from '../../components/user-avatar';
import { paths } from '../../config/paths';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { SearchBox } from '../../features/search/components/search-box';
import { useSession } from '../../lib/session';
import { truncate } from '../../lib/truncate';
import { useNavActions } from './nav-actions';
import { NavMenu } from './nav-menu';

/**
 * Large screens: the app's name, the search box, the main places, a More menu, and who is logged in; a visitor
 * sees Log in and Sign up there instead of having to find Login under More.
 */
export function LeftNav() {
  const { user, theme, themeLabel, toggleTheme, guardCreate, guardBookmarks, logout, logoutAll, login, settings } =
    useNavActions();
  const { canModerate } = useSession();
  const navigate = useNavigate();
  return (
    <nav className="left-nav" aria-label="Main">
      <Link to={paths.home} className="brand">
        TechIt
      </Link>
      <SearchBox variant="nav" />
      <ul className="left-nav-links">
        <li>
          <NavLink to={paths.home} end className="nav-link">
            <HomeOutlined aria-hidden /> Feed
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.notices} className="nav-link">
            <PushpinOutlined aria-hidden /> Notices
          </NavLink>
        </li>
        {user && (
          <li>
            <NotificationBell variant="left" />
          </li>
        )}
        <li>
          <NavLink to={paths.bookmarks()} className="nav-link" onClick={guardBookmarks}>
            <BookOutlined aria-hidden /> Bookmarks
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.createPost} className="nav-link" onClick={guardCreate}>
            <PlusSquareOutlined aria-hidden /> Create
          </NavLink>
        </li>
        {canModerate && (
          <li>
            <NavLink to={paths.admin()} className="nav-link">
              <SafetyOutlined aria-hidden /> Admin
            </NavLink>
          </li>
        )}
        <li>
          <NavMenu
            items={[
              ...(user
                ? [{ key: 'settings', label: 'Settings', icon: <SettingOutlined aria-hidden />, onClick: settings }]
                : []),
              {
                key: 'theme',
                label: themeLabel,
                icon: theme === 'light' ? <MoonOutlined /> : <SunOutlined />,
                onClick: toggleTheme,
              },
              {
                key: 'moderation-log',
                label: 'Moderation log',
                icon: <AuditOutlined />,
                onClick: () => void navigate(paths.moderationLog),
              },
              user
                ? { key: 'logout', label: 'Logout', icon: <LogoutOutlined />, onClick: logout }
                : { key: 'login', label: 'Login', icon: <LoginOutlined />, onClick: login },
              ...(user
                ? [
                    {
                      key: 'logout-all',
                      label: 'Sign out of all devices',
                      // Hidden from its name, which must not contain "logout" (that is the item above).
                      icon: <LogoutOutlined aria-hidden />,
                      onClick: logoutAll,
                    },
                  ]
                : []),
            ]}
          >
            <Button type="text" className="nav-link nav-button" icon={<MenuOutlined aria-hidden />}>
              More
            </Button>
          </NavMenu>
        </li>
      </ul>
      {!user && (
        <div className="left-nav-guest">
          <ButtonLink to={paths.login} type="primary" block>
            Log in
          </ButtonLink>
          <ButtonLink to={paths.signup} block>
            Sign up
          </ButtonLink>
        </div>
      )}
      {user && (
        <Link to={paths.profile(user._id)} className="left-nav-profile">
          {/* Named by the whole name (the text shown may be cut short), not by an aria-label that
              would leave the shown text out of the link's name (axe's label-content-name-mismatch). */}
          <span className="visually-hidden">Your profile: {user.userName}</span>
          <span aria-hidden style={{ display: 'contents' }}>
            <UserAvatar pic={user.pic} userName={user.userName} size={40} />
          </span>
          <span className="left-nav-profile-text" aria-hidden>
            <strong className="left-nav-profile-name">
              {truncate(user.userName, UI.nameTruncateAbove, UI.nameKeep)}
            </strong>
            <span className="left-nav-profile-email">{truncate(user.email, UI.emailTruncateAbove, UI.emailKeep)}</span>
          </span>
        </Link>
      )}
    </nav>
  );
}
