import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useRequireLogin } from '../../components/use-require-login';
import { paths } from '../../config/paths';
import { useTheme } from '../../features/theme/theme-provider';
import { notify } from '../../lib/notify';
import { hasStatus, queryClient } from '../../lib/query-client';
import { useSession } from '../../lib/session';

const logoutEverywhere = {
  // Fetched when used: the menu is the only way in, and no first paint needs it.
  mutationFn: async () => (await import('../../features/auth/api/logout-all')).logoutAll(),
  meta: {
    errorToast: {
      title: 'Oops',
      description: 'there was an issue while signing out of all devices!',
      // A 401 has already ended the session here, with its own toast.
      except: hasStatus(401),
    },
  },
};

/** What both navigation bars do: one definition, two layouts. */
export function useNavActions() {
  const navigate = useNavigate();
  const { user, signOut } = useSession();
  const { theme, toggleTheme } = useTheme();
  const requireLogin = useRequireLogin();
  const guardLink = (event: MouseEvent, message: string) => {
    if (user || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    requireLogin(message, () => undefined);
  };
  return {
    user,
    theme,
    toggleTheme,
    themeLabel: theme === 'light' ? 'Dark Mode' : 'Light Mode',
    /**
     * Create is a link to /createpost (it opens in a new tab, and is announced as a link); a
     * visitor's plain click stays here with the spec's 'Login Required!' toast instead.
     */
    guardCreate: (event: MouseEvent) => guardLink(event, 'Please login to create a post'),
    /** Bookmarks (a signed-in reader's page) likewise: a visitor's click gets the toast. */
    guardBookmarks: (event: MouseEvent) => guardLink(event, 'Please login to see your bookmarks'),
    logout: () => {
      signOut();
      void navigate(paths.login);
    },
    /** The server retires every token of the user (other browsers too), then this one signs out. */
    logoutAll: () => {
      // A mutation, so its failure follows the error policy (lib/query-client.ts), run the way
      // MutationObserver runs one: useMutation here would put its code in the layout, which every
      // page downloads first, for one menu item.
      void queryClient
        .getMutationCache()
        .build(queryClient, logoutEverywhere)
        .execute(undefined)
        .then(
          () => {
            signOut();
            void navigate(paths.login);
            notify.success('Signed out of all devices');
          },
          () => undefined,
        );
    },
    login: () => void navigate(paths.login),
    settings: () => void navigate(paths.settings),
  };
}
