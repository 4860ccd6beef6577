import type { Me } from '@techit/contract/api-types';
import type { Theme } from '@techit/contract/enums';
import { STORAGE_KEYS } from '@techit/contract/limits';

/** The browser's copy of the session, under the keys the original client used. */
export const storage = {
  token(): string | null {
    return localStorage.getItem(STORAGE_KEYS.token);
  },
  user(): Me | null {
    try {
      const user = JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? 'null') as Me | null;
      return user && typeof user._id === 'string' ? user : null;
    } catch {
      return null;
    }
  },
  saveSession(token: string, user: Me): void {
    localStorage.setItem(STORAGE_KEYS.token, token);
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  },
  saveUser(user: Me): void {
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  },
  clearSession(): void {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.user);
  },
  guestTheme(): Theme | null {
    const theme = localStorage.getItem(STORAGE_KEYS.guestTheme);
    return theme === 'light' || theme === 'dark' ? theme : null;
  },
  saveGuestTheme(theme: Theme): void {
    localStorage.setItem(STORAGE_KEYS.guestTheme, theme);
  },
};
