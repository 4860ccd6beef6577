/**
 * The sizes every uploaded picture is stored at, and how a client gets from the one URL the API
 * returns (posts.photo, users.pic: always the full image) to the size a screen needs, with its
 * pixel size when the URL says it. The server names its files by these rules and the web app
 * reads URLs by them, so the two cannot disagree (docs/decisions/007-image-variants.md).
 *
 * Disk: `/uploads/<id>-<width>x<height>.webp` is the full image, `….card.webp` and `….avatar.webp`
 * sit beside it. S3: the same names under S3_PUBLIC_URL. Cloudinary: the same
 * `<id>-<width>x<height>` name; the variants are URL transformations, generated eagerly at upload.
 */

export type ImageVariant = 'full' | 'card' | 'avatar';

export interface PixelSize {
  width: number;
  height: number;
}

export interface ImageSource {
  src: string;
  /** The file's pixel size; absent when the URL does not say it (older uploads, other sites). */
  width?: number;
  height?: number;
}

export const IMAGE_SIZES = {
  /** The full image fits in this square: wide enough for the post page on any screen. */
  fullMaxEdge: 1600,
  /** A feed column is at most 632 CSS px wide, and a feed shows many cards. */
  cardMaxWidth: 600,
  /** The largest avatar drawn is the profile header's 112 px; twice that for high-density screens. */
  avatarSide: 224,
} as const;

export const IMAGE_VARIANT_SUFFIX: Record<ImageVariant, string> = {
  full: '.webp',
  card: '.card.webp',
  avatar: '.avatar.webp',
};

/** A variant's pixel size from the full image's. Never larger than the full image. */
export function variantSize(full: PixelSize, variant: ImageVariant): PixelSize {
  switch (variant) {
    case 'full':
      return { width: full.width, height: full.height };
    case 'card': {
      const width = Math.min(full.width, IMAGE_SIZES.cardMaxWidth);
      return { width, height: Math.max(1, Math.round((full.height * width) / full.width)) };
    }
    case 'avatar': {
      const side = Math.min(IMAGE_SIZES.avatarSide, full.width, full.height);
      return { width: side, height: side };
    }
  }
}

/** The name shared by an upload's files: its id and the full image's pixel size. */
export function sizedImageStem(id: string, full: PixelSize): string {
  return `${id}-${full.width}x${full.height}`;
}

/**
 * Cloudinary's transformation for a variant, written as its SDK writes it so the URL hits the copy
 * generated eagerly at upload. The avatar side is the variant's when the size is known.
 */
export function cloudinaryTransformation(variant: ImageVariant, full?: PixelSize): string | null {
  switch (variant) {
    case 'full':
      return null;
    case 'card':
      return `c_limit,w_${IMAGE_SIZES.cardMaxWidth}`;
    case 'avatar': {
      const side = full ? variantSize(full, 'avatar').width : IMAGE_SIZES.avatarSide;
      return `c_fill,h_${side},w_${side}`;
    }
  }
}

const EDGE = '([1-9][0-9]{0,3})';
const LOCAL_SIZED = new RegExp(`^(/uploads/[0-9a-f]{24}-${EDGE}x${EDGE})\\.webp$`);
/** An S3-compatible store's public URL (any host): the disk's file names under it. */
const REMOTE_SIZED = new RegExp(`^(https?://[^?#]+/[0-9a-f]{24}-${EDGE}x${EDGE})\\.webp$`);
const CLOUDINARY = /^(https?:\/\/res\.cloudinary\.com\/[^/?#]+\/image\/upload\/)([^?#]+)$/;
const CLOUDINARY_SIZED_NAME = new RegExp(`(?:^|/)[0-9a-f]{24}-${EDGE}x${EDGE}\\.webp$`);

/**
 * The URL of a stored picture's variant and its pixel size. A URL that carries no size (uploads
 * from before variants, the default avatar, a picture on another site) comes back unchanged and
 * without a size: the page gives it a fixed box instead.
 */
export function imageVariant(url: string, variant: ImageVariant): ImageSource {
  const local = LOCAL_SIZED.exec(url);
  if (local) {
    const full = { width: Number(local[2]), height: Number(local[3]) };
    return { src: `${local[1]}${IMAGE_VARIANT_SUFFIX[variant]}`, ...variantSize(full, variant) };
  }
  const cloudinary = CLOUDINARY.exec(url);
  if (cloudinary) {
    const name = CLOUDINARY_SIZED_NAME.exec(cloudinary[2]);
    const full = name ? { width: Number(name[1]), height: Number(name[2]) } : undefined;
    const transformation = cloudinaryTransformation(variant, full);
    const src = transformation ? `${cloudinary[1]}${transformation}/${cloudinary[2]}` : url;
    return full ? { src, ...variantSize(full, variant) } : { src };
  }
  const remote = REMOTE_SIZED.exec(url);
  if (remote) {
    const full = { width: Number(remote[2]), height: Number(remote[3]) };
    return { src: `${remote[1]}${IMAGE_VARIANT_SUFFIX[variant]}`, ...variantSize(full, variant) };
  }
  return { src: url };
}
