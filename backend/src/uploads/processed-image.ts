import type { PixelSize } from '@techit/contract/image-variants';

export interface EncodedImage extends PixelSize {
  data: Buffer;
}

/**
 * One upload, encoded: the full image (what the API keeps in photo/pic) and its copies, at the
 * sizes of @techit/contract/image-variants.
 */
export interface ProcessedImage {
  full: EncodedImage;
  card: EncodedImage;
  avatar: EncodedImage;
}
