import Icon from '@ant-design/icons';
import { Button } from 'antd';
import './feed-link.css';

/** The RSS symbol (Ant Design has none): a dot and two arcs, in the text's colour. */
function RssSvg() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden focusable="false">
      <circle cx="5" cy="19" r="2.5" />
      <path d="M2.5 9.5v3.2a8.8 8.8 0 0 1 8.8 8.8h3.2A12 12 0 0 0 2.5 9.5z" />
      <path d="M2.5 2.5v3.2a15.8 15.8 0 0 1 15.8 15.8h3.2A19 19 0 0 0 2.5 2.5z" />
    </svg>
  );
}

/**
 * A feed of the site's posts (the tag page's, a profile's): a plain link to the feed file, which
 * a feed reader takes (no router link: the file is no screen of the app). `href` comes from the
 * contract's feedPath, as the server's routes do; `label` names whose feed it is.
 */
export function FeedLink({ href, label }: { href: string; label: string }) {
  return (
    <Button
      size="small"
      type="text"
      className="feed-link"
      href={href}
      aria-label={label}
      title={label}
      icon={<Icon component={RssSvg} aria-hidden />}
    >
      RSS
    </Button>
  );
}
