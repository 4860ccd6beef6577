import type { ReactNode } from 'react';
import './posts.css';

/**
 * The home page's columns: the feed, and a side panel on wide screens only (≥ 992 px). The panel
 * (the feed switch and Top Posts) comes before the feed in the page, so the keyboard and screen
 * readers reach it without going through an endless list; the grid still draws it on the right.
 */
export function FeedLayout({ heading, children, aside }: { heading: string; children: ReactNode; aside: ReactNode }) {
  return (
    <div className="feed-layout">
      <h1 className="feed-heading">{heading}</h1>
      <aside className="feed-aside" aria-label="Feeds and top posts">
        {aside}
      </aside>
      <div className="feed-main">{children}</div>
    </div>
  );
}
