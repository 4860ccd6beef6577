import { App } from 'antd';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { NotifyBridge } from '../../lib/notify';

/**
 * Inside the router, so that toasts (rendered by Ant Design's App) can hold router links such as
 * the 'Login Required!' toast's Login link.
 */
export function RootLayout() {
  return (
    <App component={false}>
      <NotifyBridge />
      <ScrollRestoration />
      <Outlet />
    </App>
  );
}
