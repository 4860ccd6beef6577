/**
 * ScrollRestoration (layout/root-layout.tsx) remembers a scroll position per history entry, under
 * the key React Router keeps in `history.state`. An entry the browser made itself (an address
 * typed into the tab, a link from another site, a reload) carries no key, and React Router names
 * every such entry 'default': a post typed into a tab that had scrolled the feed took the feed's
 * position and opened scrolled down. Before the router starts, such an entry (and a reloaded one,
 * whose content is fetched anew) gets a key of its own, so a position is restored only on coming
 * back to the very entry it was saved for (back and forward); everything else starts at the top.
 */
export function keyThisHistoryEntry(): void {
  const state: unknown = window.history.state;
  const keyed = typeof state === 'object' && state !== null && 'key' in state;
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (keyed && navigation?.type !== 'reload') return;
  // React Router's own key format (8 base-36 characters); `idx` and `usr` are left as they were.
  const key = Math.random().toString(36).substring(2, 10);
  window.history.replaceState({ ...(typeof state === 'object' ? state : null), key }, '');
}
