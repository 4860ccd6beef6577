import { useNavigate } from 'react-router-dom';
import { useRequireLogin } from '../../components/use-require-login';
import { paths } from '../../config/paths';
import { useTheme } from '../../features/theme/theme-provider';
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
    login: () => void navigate(paths.login),
  };
}
