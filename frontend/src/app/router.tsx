import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunction, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { paths } from '../config/paths';
import { type RouteDefinition, type RouteName, routes } from '../config/routes';
import { useSession } from '../lib/session';
import { keyThisHistoryEntry } from './history-entry-key';
import { AppLayout } from './layout/app-layout';
import { RootLayout } from './layout/root-layout';
import { prefetchBookmarks, prefetchHome, prefetchPost, prefetchProfile } from './route-prefetch';

/** Each page is its own chunk, loaded when first visited (config/routes.ts names its file). */
const pages = import.meta.glob<{ default: ComponentType }>('./routes/*.tsx');

/** The screens whose first data starts with the route, while the page's code downloads. */
const loaders: Partial<Record<RouteName, LoaderFunction>> = {
  home: prefetchHome,
  post: prefetchPost,
  profile: prefetchProfile,
  bookmarks: prefetchBookmarks,
};

function route(name: RouteName): RouteObject {
  const { path, page } = routes[name];
  const load = pages[`./routes/${page}.tsx`];
  if (!load) throw new Error(`config/routes.ts: ${name} names src/app/routes/${page}.tsx, which does not exist`);
  const loader = loaders[name];
  return {
    ...(path === '/' ? { index: true } : { path }),
    ...(loader ? { loader } : {}),
    lazy: async () => ({ Component: (await load()).default }),
  };
}

const names = Object.keys(routes) as RouteName[];

/** A layout's screens; those that need a session behind RequireSession. */
function screens(layout: RouteDefinition['layout']): RouteObject[] {
  const own = names.filter((name) => (routes[name] as RouteDefinition).layout === layout);
  const needsSession = (name: RouteName) => (routes[name] as RouteDefinition).session === true;
  const guarded = own.filter(needsSession).map(route);
  const open = own.filter((name) => !needsSession(name)).map(route);
  return guarded.length > 0 ? [...open, { element: <RequireSession />, children: guarded }] : open;
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

keyThisHistoryEntry();

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    HydrateFallback: BlankPlaceholder,
    children: [
      ...screens('bare'),
      {
        element: <AppLayout />,
        // Until the first page's chunk has arrived, the navigation bars show alone. The same
        // component as the element, so React keeps it (and a menu opened meanwhile) in place.
        hydrateFallbackElement: <AppLayout placeholder />,
        children: screens('app'),
      },
    ],
  },
]);
