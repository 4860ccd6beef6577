import { LinkOutlined, ShareAltOutlined } from '@ant-design/icons';
import type { Post } from '@techit/contract/api-types';
import { Button } from 'antd';
import { paths } from '../../../config/paths';
import { notify } from '../../../lib/notify';

/** The post's address as someone elsewhere opens it: absolute, on this site's origin. */
function postUrl(postId: string): string {
  return new URL(paths.post(postId), window.location.origin).href;
}

/**
 * Whether the system's share sheet is there (phones, some desktops): then Share opens it,
 * elsewhere the control copies the link. Asked at render, as the button's name depends on it.
 */
function canShare(data: ShareData): boolean {
  return typeof navigator.share === 'function' && (navigator.canShare?.(data) ?? true);
}

async function copyLink(url: string): Promise<void> {
  try {
    // Not there on a plain-http address other than localhost (not a secure context).
    await navigator.clipboard.writeText(url);
  } catch {
    notify.error('Could not copy the link', url, 'copy-link');
    return;
  }
  notify.dismissError('copy-link');
  notify.success('Link copied');
}

/**
 * Share a post: the Web Share API's sheet where the browser has one, else "Copy link" (the
 * absolute address to the clipboard, with a toast). A plain button, so Enter and Space work.
 */
export function ShareButton({ post, withText = false }: { post: Post; withText?: boolean }) {
  const url = postUrl(post._id);
  const data: ShareData = { title: post.title, url };
  const share = canShare(data);
  const action = share ? 'Share' : 'Copy link';

  const onClick = () => {
    if (!share) {
      void copyLink(url);
      return;
    }
    navigator.share(data).catch((error: unknown) => {
      // Closing the sheet is no failure; anything else (no permission, a busy sheet) copies instead.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      void copyLink(url);
    });
  };

  return (
    <Button
      type="text"
      className="post-count-button post-icon-button"
      aria-label={`${action}: ${post.title}`}
      title={share ? 'Share this post' : 'Copy the link to this post'}
      icon={share ? <ShareAltOutlined aria-hidden /> : <LinkOutlined aria-hidden />}
      onClick={onClick}
    >
      {withText ? action : null}
    </Button>
  );
}
