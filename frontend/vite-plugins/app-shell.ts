import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import { STORAGE_KEYS } from '../../contract/src/limits';
import { type RouteDefinition, routePattern, routes } from '../src/config/routes';

/**
 * The navigation bars as plain HTML inside #root, painted with the page itself: a phone sees the
 * app's frame at once instead of a blank screen while the scripts download and run. React
 * replaces it with the real bars (app/layout) on its first render; the bars are inert (aria-hidden,
 * no links) and mirror their markup and classes (layout.css), so the swap does not show. The
 * server puts a page's readable content in its main area (backend/src/pages, decision 044) and
 * marks the shell boot-shell-filled: that content shows even where no script runs.
 */

const require = createRequire(import.meta.url);

interface IconNode {
  tag: string;
  attrs: Record<string, string>;
  children?: IconNode[];
}

/** An Ant Design icon as the markup @ant-design/icons renders for it. */
function icon(name: string, className: string): string {
  const definition = (require(`@ant-design/icons-svg/lib/asn/${name}`) as { default: { icon: IconNode } }).default;
  const render = (node: IconNode): string => {
    const attrs = Object.entries(node.attrs)
      .map(([key, value]) => ` ${key}="${value}"`)
      .join('');
    return `<${node.tag}${attrs}>${(node.children ?? []).map(render).join('')}</${node.tag}>`;
  };
  const svg = render({
    ...definition.icon,
    attrs: { ...definition.icon.attrs, width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': 'true' },
  });
  return `<span role="img" class="anticon ${className}">${svg}</span>`;
}

const PLACES = [
  ['HomeOutlined', 'anticon-home', 'Feed'],
  ['PushpinOutlined', 'anticon-pushpin', 'Notices'],
  ['BookOutlined', 'anticon-book', 'Bookmarks'],
  ['PlusSquareOutlined', 'anticon-plus-square', 'Create'],
  ['MenuOutlined', 'anticon-menu', 'More'],
] as const;

/**
 * The bottom bar's icons: the places, with Search after Notices (the left bar has its box
 * instead); Bookmarks is in its menu (bottom-nav.tsx: no room for another icon on a phone).
 */
const BOTTOM_PLACES = [
  PLACES[0],
  PLACES[1],
  ['SearchOutlined', 'anticon-search', 'Search'],
  PLACES[3],
  PLACES[4],
] as const;

/**
 * The colours the theme gives the bars (theme-provider.tsx: the text blue, TEXT_BLUE, the page
 * colours), and the bars' boxes as layout.css draws .left-nav and .bottom-nav. The shell has
 * class names of its own so that nothing looking for the real bars finds it instead.
 */
const SHELL_STYLE = `.boot-shell{display:none;--surface:#ffffff;--page:#f5f5f5;--border:#f0f0f0;--border-strong:#d9d9d9;--text:rgba(0,0,0,0.88);--primary:#1668dc;--hover:rgba(0,0,0,0.04)}
html[data-theme='dark'] .boot-shell{--surface:#141414;--page:#141414;--border:#303030;--border-strong:#424242;--text:rgba(255,255,255,0.85);--primary:#5c99dc;--hover:rgba(255,255,255,0.08)}
.boot-search{display:block;height:40px;margin:0 0 8px;border:1px solid var(--border-strong);border-radius:20px;background:var(--page)}
html[data-shell] .boot-shell{display:block}
.boot-left-nav{display:none}
.boot-shell-filled{display:block}
html:not([data-shell]) .boot-shell .boot-left-nav,html:not([data-shell]) .boot-shell .boot-bottom-nav{display:none}
html:not([data-shell]) .boot-shell .app-main{margin-left:auto}
.boot-bottom-nav{position:fixed;inset:auto 0 0 0;z-index:10;display:flex;justify-content:space-around;align-items:center;height:60px;background:var(--surface);border-top:1px solid var(--border)}
html[data-own-feed] .server-page-visitor-feed{display:none}
@media (min-width:992px){.boot-left-nav{position:fixed;inset:0 auto 0 0;width:240px;display:flex;flex-direction:column;gap:8px;padding:24px 16px;background:var(--surface);border-right:1px solid var(--border)}.boot-bottom-nav{display:none}}`;

/**
 * Only pages inside the app's layout have the bars: the shell shows unless the address is one of
 * the routes config/routes.ts draws without them (log in, sign up), matched as react-router does.
 */
const BARE_PAGES = (Object.values(routes) as RouteDefinition[])
  .filter((route) => route.layout === 'bare')
  .map((route) => routePattern(route))
  .join('|');
const SHELL_SCRIPT = `if(!new RegExp(${JSON.stringify(BARE_PAGES)},'i').test(location.pathname))document.documentElement.setAttribute('data-shell','')`;

/**
 * The server renders the home's feed as a visitor's default view (backend/src/pages): a signed-in
 * reader's feed leaves out what they mute and block, and `?feed=` names another feed, so then the
 * page is marked and SHELL_STYLE hides that list until the app draws the reader's own.
 */
const OWN_FEED_SCRIPT = `try{if(location.search||localStorage.getItem(${JSON.stringify(STORAGE_KEYS.token)}))document.documentElement.setAttribute('data-own-feed','')}catch(e){}`;

export function appShell(): Plugin {
  return {
    name: 'techit-app-shell',
    transformIndexHtml(html) {
      const root = '<div id="root"></div>';
      if (!html.includes(root)) throw new Error(`techit-app-shell: index.html no longer has ${root}`);
      const links = PLACES.map(
        ([name, className, label]) => `<li><span class="nav-link">${icon(name, className)} ${label}</span></li>`,
      ).join('');
      const items = BOTTOM_PLACES.map(
        ([name, className]) => `<span class="bottom-nav-item">${icon(name, className)}</span>`,
      ).join('');
      const shell =
        `<div class="app-shell boot-shell">` +
        `<div class="boot-left-nav" aria-hidden="true"><span class="brand">TechIt</span><span class="boot-search"></span><ul class="left-nav-links">${links}</ul></div>` +
        `<main class="app-main"></main>` +
        `<div class="boot-bottom-nav" aria-hidden="true">${items}</div>` +
        `</div>`;
      return {
        html: html.replace(root, () => `<div id="root">${shell}</div>`),
        tags: [
          { tag: 'style', children: SHELL_STYLE, injectTo: 'head' },
          { tag: 'script', children: SHELL_SCRIPT, injectTo: 'head' },
          { tag: 'script', children: OWN_FEED_SCRIPT, injectTo: 'head' },
        ],
      };
    },
  };
}
