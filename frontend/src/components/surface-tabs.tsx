import { ConfigProvider, theme } from 'antd';
import {
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  useContext,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import './surface-tabs.css';

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

interface TabsProps<K extends string> {
  items: TabItem<K>[];
  activeKey: K;
  onChange: (key: K) => void;
  /** The active tab's content; the others are not rendered. */
  children: ReactNode;
}

/**
 * Ant Design's Tabs as the profile uses them (a few text tabs on top, only the active one's panel),
 * drawn the same (surface-tabs.css, from the theme's colours) with the same roles and keyboard use
 * (arrows move between tabs, Enter or Space opens one). The library's Tabs also bring scrolling
 * tab lists with an overflow menu (Menu and Dropdown), and their style sheet all the other kinds of
 * tabs: about 30 KB gzip and four requests that a profile would wait for before showing anything.
 */
export function Tabs<K extends string>({ items, activeKey, onChange, children }: TabsProps<K>) {
  const { direction } = useContext(ConfigProvider.ConfigContext);
  const { token } = theme.useToken();
  const colors = {
    '--tabs-text': token.colorText,
    '--tabs-line': token.colorBorderSecondary,
    '--tabs-selected': token.colorPrimaryText,
    '--tabs-hover': token.colorPrimaryTextHover,
    '--tabs-pressed': token.colorPrimaryTextActive,
  } as CSSProperties;
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const [focusKey, setFocusKey] = useState<K | null>(null);
  const [inkBar, setInkBar] = useState<CSSProperties | null>(null);

  // Under the active tab, centred as Ant Design places it; measured before the first paint (from
  // no position at all, which does not animate), then sliding to a newly chosen tab.
  useLayoutEffect(() => {
    const tab = list.current?.querySelector<HTMLElement>(`[data-node-key="${activeKey}"]`);
    if (!tab) return;
    const place = () =>
      setInkBar({ width: tab.offsetWidth, left: tab.offsetLeft + tab.offsetWidth / 2, transform: 'translateX(-50%)' });
    place();
    const observer = new ResizeObserver(place);
    observer.observe(tab);
    return () => observer.disconnect();
  }, [activeKey]);

  const tabId = (key: K) => `${id}-tab-${key}`;
  const panelId = (key: K) => `${id}-panel-${key}`;

  const onKeyDown = (event: KeyboardEvent) => {
    const current = items.findIndex((item) => item.key === (focusKey ?? activeKey));
    const step = direction === 'rtl' ? -1 : 1;
    let next: number | null = null;
    if (event.code === 'ArrowLeft') next = current - step;
    else if (event.code === 'ArrowRight') next = current + step;
    else if (event.code === 'Home') next = 0;
    else if (event.code === 'End') next = items.length - 1;
    else if (event.code === 'Enter' || event.code === 'Space') {
      event.preventDefault();
      onChange(items[current].key);
      return;
    }
    if (next === null) return;
    event.preventDefault();
    const key = items[(next + items.length) % items.length].key;
    setFocusKey(key);
    document.getElementById(tabId(key))?.focus();
  };

  return (
    <div className="surface-tabs" style={colors} dir={direction === 'rtl' ? 'rtl' : undefined}>
      <div role="tablist" aria-orientation="horizontal" className="surface-tabs-nav">
        <div className="surface-tabs-list" ref={list}>
          {items.map(({ key, label }, index) => {
            const active = key === activeKey;
            const focused = key === focusKey;
            return (
              <div
                key={key}
                data-node-key={key}
                className={active ? 'surface-tabs-tab is-active' : 'surface-tabs-tab'}
                onClick={() => onChange(key)}
              >
                <div
                  role="tab"
                  aria-selected={active}
                  className="surface-tabs-btn"
                  tabIndex={active ? 0 : -1}
                  id={tabId(key)}
                  aria-controls={panelId(key)}
                  onKeyDown={onKeyDown}
                  onFocus={(event) => {
                    if (event.currentTarget.matches(':focus-visible')) setFocusKey(key);
                  }}
                  onBlur={() => setFocusKey(null)}
                >
                  {focused && (
                    <div aria-live="polite" className="visually-hidden">
                      Tab {index + 1} of {items.length}
                    </div>
                  )}
                  {label}
                </div>
              </div>
            );
          })}
          <div className="surface-tabs-ink-bar" style={inkBar ?? undefined} />
        </div>
      </div>
      <div
        role="tabpanel"
        tabIndex={0}
        className="surface-tabs-panel"
        id={panelId(activeKey)}
        aria-labelledby={tabId(activeKey)}
      >
        {children}
      </div>
    </div>
  );
}
