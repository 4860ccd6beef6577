import { Outlet, ScrollRestoration } from 'react-router-dom';
import { SkipLink } from '../../components/skip-link';
import { FeedbackHost } from '../../lib/notify';

/**
 * Inside the router, so that toasts (whose holders FeedbackHost renders) can hold router links
 * such as the 'Login Required!' toast's Login link. The skip link comes first on every page.
 */
export function RootLayout() {
  return (
    <>
      <SkipLink />
      <FeedbackHost />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
