import { useNavigate } from 'react-router-dom';
import { useRequireLogin } from '../../components/use-require-login';
import { paths } from '../../config/paths';
import { useTheme } from '../../features/theme/theme-provider';
import { ApiError } from '../../lib/api-client';
import { notify } from '../../lib/notify';
import { useSession } from '../../lib/session';

/** What both navigation bars do: one definition, two layouts. */
export function useNavActions() {
  const navigate = useNavigate();
  const { user, signOut } = useSession();
  const { theme, toggleTheme } = useTheme();
  const requireLogin = useRequireLogin();
  return {
    user,
    theme,
    toggleTheme,
    themeLabel: theme === 'light' ? 'Dark Mode' : 'Light Mode',
    goCreate: () => requireLogin('Please login to create a post', () => void navigate(paths.createPost)),
    logout: () => {
      signOut();
      void navigate(paths.login);
    },
    /** The server retires every token of the user (other browsers too), then this one signs out. */
    logoutAll: () => {
      // Fetched when used: the menu is the only way in, and no first paint needs it.
      import('../../features/auth/api/logout-all')
        .then(({ logoutAll }) => logoutAll())
        .then(
          () => {
            signOut();
            void navigate(paths.login);
            notify.success('Signed out of all devices');
          },
          (error: unknown) => {
            // A 401 has already ended the session here, with its own toast.
            if (error instanceof ApiError && error.status === 401) return;
            notify.error('Oops', 'there was an issue while signing out of all devices!');
          },
        );
    },
    login: () => void navigate(paths.login),
  };
}
