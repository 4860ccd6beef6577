import type { MouseEvent } from 'react';

/** The id of every page's <main> (the app layout's and the auth screens'): where the skip link lands. */
export const MAIN_ID = 'main';

/**
 * The first thing the Tab key reaches on every page, hidden until focused: it moves focus past the
 * navigation to the page's own content, so a keyboard user does not tab through the bars (and, on
 * the home page, reaches the feed switch and Top Posts before the endless feed).
 */
export function SkipLink() {
  // The target takes focus itself (tabIndex -1): following the #fragment alone would scroll but
  // leave focus on the link in some browsers, and would add a history entry to the router.
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
  };
  return (
    <a className="skip-link" href={`#${MAIN_ID}`} onClick={skip}>
      Skip to content
    </a>
  );
}
