import type { ReactNode } from 'react';
import './posts.css';

/** The home page's columns: the feed, and a side panel on wide screens only (≥ 992 px). */
export function FeedLayout({ heading, children, aside }: { heading: string; children: ReactNode; aside: ReactNode }) {
  return (
    <div className="feed-layout">
      <div className="feed-main">
        <h1 className="feed-heading">{heading}</h1>
        {children}
      </div>
      <aside className="feed-aside" aria-label="Feeds and top posts">
        {aside}
      </aside>
    </div>
  );
}
