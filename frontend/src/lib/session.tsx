import { useQueryClient } from '@tanstack/react-query';
import type { Me } from '@techit/contract/api-types';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { onSessionExpired } from './api-client';
import { notify } from './notify';
import { storage } from './storage';

interface Session {
  /** The logged-in user as last saved (restored from storage on load), or null for a visitor. */
  user: Me | null;
  isAdmin: boolean;
  /** Moderators and admins: the admin area, the report queue, removed content read whole (decision 047). */
  canModerate: boolean;
  signIn: (token: string, user: Me) => void;
  signOut: () => void;
  /** After follow, unfollow, picture, bio, position and theme changes, the stored copy follows. */
  updateUser: (user: Me) => void;
  /** A password change answers a new token for this session (decision 049): the same user goes on with it. */
  renewToken: (token: string) => void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<Me | null>(() => (storage.token() ? storage.user() : null));
  const queryClient = useQueryClient();

  const signIn = useCallback((token: string, next: Me) => {
    storage.saveSession(token, next);
    setUser(next);
  }, []);

  const signOut = useCallback(() => {
    storage.clearSession();
    setUser(null);
  }, []);

  const updateUser = useCallback((next: Me) => {
    storage.saveUser(next);
    setUser(next);
  }, []);

  const renewToken = useCallback((token: string) => {
    const current = storage.user();
    if (current) storage.saveSession(token, current);
  }, []);

  useEffect(
    () =>
      onSessionExpired(() => {
        signOut();
        // Expired, or ended from another device (Sign out of all devices): the way back is one click.
        notify.error(
          'Please login again',
          <span>
            Your session has ended. <Link to={paths.login}>Login</Link>
          </span>,
        );
      }),
    [signOut],
  );

  // Another tab logging in or out changes this one too.
  useEffect(() => {
    const sync = () => setUser(storage.token() ? storage.user() : null);
    window.addEventListener('storage', sync);
    return () => window.removeEventListener('storage', sync);
  }, []);

  // Replies show the viewer's own state (liked, following, saved): when the viewer changes, every
  // reply starts afresh. Reset rather than removed, and once the pages have rendered for the new
  // viewer: a page on screen then fetches again as them (with their token, or as a visitor), where
  // a removed query left its page waiting on a reply it dropped (a post page stayed a skeleton when
  // a session ended while the post was on its way; CI, session 16).
  const viewerId = user?._id ?? null;
  const shownFor = useRef(viewerId);
  useEffect(() => {
    if (shownFor.current === viewerId) return;
    shownFor.current = viewerId;
    void queryClient.resetQueries();
  }, [viewerId, queryClient]);

  const value = useMemo(
    () => ({
      user,
      isAdmin: user?.role === 'admin',
      canModerate: user?.role === 'admin' || user?.role === 'moderator',
      signIn,
      signOut,
      updateUser,
      renewToken,
    }),
    [user, signIn, signOut, updateUser, renewToken],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside SessionProvider');
  return session;
}
