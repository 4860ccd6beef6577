import { imageVariant } from '@techit/contract/image-variants';

interface PostPhotoProps {
  url: string;
  alt: string;
  /** The post's own page: the full image; a feed card takes the card-size copy. */
  expanded: boolean;
  /** Likely the largest thing on screen at load (the detail page, a list's first card): fetched at once. */
  priority: boolean;
}

/**
 * A post's picture with its real width and height when the URL says them, so the browser reserves
 * the right box before the bytes arrive. Without them (older uploads, other sites) the CSS gives
 * a fixed-ratio box the picture fits into, which does not move when it loads either.
 */
export function PostPhoto({ url, alt, expanded, priority }: PostPhotoProps) {
  const { src, width, height } = imageVariant(url, expanded ? 'full' : 'card');
  const size = width !== undefined && height !== undefined ? { width, height } : null;
  const eager = expanded || priority;
  return (
    <img
      className={size ? 'post-photo' : 'post-photo is-unsized'}
      src={src}
      alt={alt}
      width={width}
      height={height}
      style={expanded && size ? { width: wholePictureWidth(size) } : undefined}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
    />
  );
}

/**
 * On the post's page the whole picture shows: as wide as the column allows, but never enlarged
 * and never taller than the screen. A definite width (height follows from the width and height
 * attributes) keeps the box the same before and after the bytes arrive.
 */
function wholePictureWidth({ width, height }: { width: number; height: number }): string {
  return `min(100%, ${width}px, calc(var(--post-photo-max-height) * ${width} / ${height}))`;
}
