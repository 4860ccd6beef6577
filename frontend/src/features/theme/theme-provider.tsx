import type { Me } from '@techit/contract/api-types';
import type { Theme } from '@techit/contract/enums';
import { DEFAULT_THEME } from '@techit/contract/enums';
import { UI } from '@techit/contract/limits';
import { ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { storage } from '../../lib/storage';

interface ThemeValue {
  theme: Theme;
  toggleTheme: () => void;
}

const ThemeContext = createContext<ThemeValue | null>(null);

const BACKGROUND: Record<Theme, string> = { light: '#f5f5f5', dark: '#141414' };

/**
 * Colours that carry text, chosen so every one of them is at least 4.5:1 (WCAG AA) on what it is
 * drawn on: the page, the cards and the toasts and menus of its theme (docs/decisions/024;
 * e2e/tests/accessibility.story.ts runs axe-core on every screen). Ant Design's own derivations
 * miss that: its light link blue is 4.1:1 on white, and in the dark theme the brand, the active
 * places and the tabs were 2.9:1, links 3.6:1, danger text 4.3:1.
 *
 * A fill that carries white text (a primary or danger button) needs a dark colour, while text on the
 * dark theme's near-black needs a light one: no single blue does both there (4.5:1 against white
 * and against #141414 exclude each other). So the dark theme keeps the derived dark blue for fills
 * (colorPrimary, white on it 6.4:1) and gives text its own lighter blue (colorPrimaryText, links,
 * default buttons' hover), and its danger buttons, filled with a lighter red, dark text.
 */
const TEXT_BLUE: Record<Theme, { base: string; hover: string; active: string }> = {
  // 5.2:1 on white, 4.8:1 on the page's #f5f5f5; hover and pressed go darker.
  light: { base: '#1668dc', hover: '#0958d9', active: '#003eb3' },
  // 6.2:1 on the page and cards (#141414), 5.5:1 in toasts and menus (#1f1f1f); lighter when used.
  dark: { base: '#5c99dc', hover: '#85b3e6', active: '#a6c8ee' },
};

function themeConfig(theme: Theme): ThemeConfig {
  const text = TEXT_BLUE[theme];
  const light = theme === 'light';
  return {
    // Built app: styles come pre-built with each component's chunk (vite-plugins/
    // antd-static-styles.ts). The dev server pre-bundles antd without that plugin, so there
    // the styles stay generated at run time.
    zeroRuntime: import.meta.env.PROD,
    algorithm: light ? antdTheme.defaultAlgorithm : antdTheme.darkAlgorithm,
    token: {
      colorPrimary: '#1668dc',
      // Primary buttons' hover and pressed fills, under white text: darker in light (the derived
      // #3c8ae8 is 3.5:1), and in dark no lighter than 5:1.
      colorPrimaryHover: light ? text.hover : '#1668dc',
      colorPrimaryActive: light ? text.active : '#154b96',
      colorPrimaryText: text.base,
      colorPrimaryTextHover: text.hover,
      colorPrimaryTextActive: text.active,
      // A seed: the dark algorithm turns #69b1ff into the dark text blue above.
      colorLink: light ? text.base : '#69b1ff',
      colorLinkHover: text.hover,
      colorLinkActive: text.active,
      // Seeds too: light #cf1322 (5.6:1 on white, white on it 5.6:1); dark #ff7875 → #dc6966
      // (5.5:1 on the cards). The derived hover of the light red is 4.5:1 at best: darker instead.
      colorError: light ? '#cf1322' : '#ff7875',
      ...(light ? { colorErrorHover: '#a8071a', colorErrorActive: '#820014' } : {}),
      borderRadius: 8,
      // The page colour matches what theme-boot.js paints before the app loads.
      colorBgLayout: BACKGROUND[theme],
      // The orange palette from its 6th shade: the orange tag's text (the Doubt category)
      // is then 5.1:1 on its background instead of 3.3:1 (WCAG AA asks 4.5:1 for small text).
      ...(light ? { orange: '#d46b08' } : {}),
      // Secondary text (dates, counters) at 60 % instead of 45 %: 5.7:1 on the cards
      // instead of 3.4:1.
      colorTextDescription: light ? 'rgba(0, 0, 0, 0.6)' : 'rgba(255, 255, 255, 0.6)',
    },
    components: {
      // A default button's hover and pressed text (and "Edit Profile" while its menu is open)
      // take the text blue, not the fill's.
      Button: {
        defaultHoverColor: text.hover,
        defaultHoverBorderColor: text.hover,
        defaultActiveColor: text.active,
        defaultActiveBorderColor: text.active,
        ...(light ? {} : { dangerColor: '#141414' }),
      },
    },
  };
}

/**
 * Light by default. A logged-in user's theme (saved in their stored user, and on the server 1.5 s
 * after the last change) wins over a guest's choice (saved under techit-theme).
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const { user, updateUser } = useSession();
  const [guestTheme, setGuestTheme] = useState<Theme>(() => storage.guestTheme() ?? DEFAULT_THEME);
  const theme: Theme = user?.theme ?? guestTheme;
  const saveTimer = useRef<number | undefined>(undefined);

  const toggleTheme = useCallback(() => {
    const next: Theme = theme === 'light' ? 'dark' : 'light';
    if (!user) {
      storage.saveGuestTheme(next);
      setGuestTheme(next);
      return;
    }
    updateUser({ ...user, theme: next });
    window.clearTimeout(saveTimer.current);
    saveTimer.current = window.setTimeout(() => {
      // The spec's client ignores this reply; a failure leaves the local choice in place.
      api<Me>('/updatetheme', { method: 'PUT', body: { theme: next } }).catch(() => undefined);
    }, UI.themeSaveDelayMs);
  }, [theme, user, updateUser]);

  useEffect(() => () => window.clearTimeout(saveTimer.current), []);

  useEffect(() => {
    const root = document.documentElement;
    root.setAttribute('data-theme', theme);
    root.style.colorScheme = theme;
    root.style.backgroundColor = BACKGROUND[theme];
  }, [theme]);

  const value = useMemo(() => ({ theme, toggleTheme }), [theme, toggleTheme]);
  const config = useMemo(() => themeConfig(theme), [theme]);
  return (
    <ThemeContext.Provider value={value}>
      <ConfigProvider theme={config}>{children}</ConfigProvider>
    </ThemeContext.Provider>
  );
}

export function useTheme(): ThemeValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used inside ThemeProvider');
  return value;
}
