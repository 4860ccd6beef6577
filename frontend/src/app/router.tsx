import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { paths } from '../config/paths';
import { useSession } from '../lib/session';
import { AppLayout } from './layout/app-layout';
import { RootLayout } from './layout/root-layout';
import { prefetchHome, prefetchPost, prefetchProfile } from './route-prefetch';

/** Each page is its own chunk, loaded when first visited. */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

/** Until the first page's chunk has arrived, an auth page stays blank. */
function BlankPlaceholder() {
  return null;
}

/** Pages that need a session; a visitor is sent home (spec 5). */
function RequireSession() {
  const { user } = useSession();
  return user ? <Outlet /> : <Navigate to={paths.home} replace />;
}

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    HydrateFallback: BlankPlaceholder,
    children: [
      { path: paths.login, ...page(() => import('./routes/login')) },
      { path: paths.signup, ...page(() => import('./routes/signup')) },
      {
        element: <AppLayout />,
        // Until the first page's chunk has arrived, the navigation bars show alone. The same
        // component as the element, so React keeps it (and a menu opened meanwhile) in place.
        hydrateFallbackElement: <AppLayout placeholder />,
        children: [
          { index: true, loader: prefetchHome, ...page(() => import('./routes/home')) },
          { path: paths.notices, ...page(() => import('./routes/notices')) },
          { path: '/posts/:postid', loader: prefetchPost, ...page(() => import('./routes/post-detail')) },
          { path: '/editpost/:postid', ...page(() => import('./routes/edit-post')) },
          { path: '/profile/:userid', loader: prefetchProfile, ...page(() => import('./routes/profile')) },
          {
            element: <RequireSession />,
            children: [{ path: paths.createPost, ...page(() => import('./routes/create')) }],
          },
          { path: '*', ...page(() => import('./routes/not-found')) },
        ],
      },
    ],
  },
]);
