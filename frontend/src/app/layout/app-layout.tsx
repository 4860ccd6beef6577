import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { Outlet } from 'react-router-dom';
import { MAIN_ID } from '../../components/skip-link';
import { useLiveNotifications } from '../../features/notifications/live/use-live-notifications';
import { useOwnRoleSync } from '../../features/users/api/use-own-role-sync';
import { useSession } from '../../lib/session';
import { BottomNav } from './bottom-nav';
import { LeftNav } from './left-nav';
import './layout.css';

/**
 * Both bars are rendered and CSS shows the one that fits the screen: no flash of the wrong bar
 * before JavaScript has measured the window. As a `placeholder` (while the first page's code is
 * still arriving) the bars show alone.
 */
export function AppLayout({ placeholder = false }: { placeholder?: boolean }) {
  const { token } = theme.useToken();
  // The bells' count stays current while a user is signed in (its code loads only then).
  useLiveNotifications(useSession().user?._id ?? null);
  useOwnRoleSync();
  const colors = {
    '--surface': token.colorBgContainer,
    // Popups over the page (the search box's suggestions): lighter than it in the dark theme.
    '--elevated': token.colorBgElevated,
    '--page': token.colorBgLayout,
    '--border': token.colorBorderSecondary,
    // An input's edge must stand out from the page (WCAG 1.4.11): the search box's.
    '--border-strong': token.colorBorder,
    '--text': token.colorText,
    '--text-secondary': token.colorTextSecondary,
    '--primary': token.colorPrimaryText,
    '--hover': token.colorFillTertiary,
    '--hover-strong': token.colorFillSecondary,
  } as CSSProperties;
  return (
    <div className="app-shell" style={colors}>
      <LeftNav />
      <main className="app-main" id={MAIN_ID} tabIndex={-1}>
        {!placeholder && <Outlet />}
      </main>
      <BottomNav />
    </div>
  );
}
