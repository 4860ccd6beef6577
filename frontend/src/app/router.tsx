import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { paths } from '../config/paths';
import { useSession } from '../lib/session';
import { AppLayout } from './layout/app-layout';
import { RootLayout } from './layout/root-layout';

/** Each page is its own chunk, loaded when first visited. */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

/** Pages that need a session; a visitor is sent home (spec 5). */
function RequireSession() {
  const { user } = useSession();
  return user ? <Outlet /> : <Navigate to={paths.home} replace />;
}

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    children: [
      { path: paths.login, ...page(() => import('./routes/login')) },
      { path: paths.signup, ...page(() => import('./routes/signup')) },
      {
        element: <AppLayout />,
        children: [
          { index: true, ...page(() => import('./routes/home')) },
          { path: paths.notices, ...page(() => import('./routes/notices')) },
          { path: '/posts/:postid', ...page(() => import('./routes/post-detail')) },
          { path: '/editpost/:postid', ...page(() => import('./routes/edit-post')) },
          { path: '/profile/:userid', ...page(() => import('./routes/profile')) },
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
