import { Outlet, ScrollRestoration } from 'react-router-dom';
import { FeedbackHost } from '../../lib/notify';

/**
 * Inside the router, so that toasts (whose holders FeedbackHost renders) can hold router links
 * such as the 'Login Required!' toast's Login link.
 */
export function RootLayout() {
  return (
    <>
      <FeedbackHost />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
