import type { ProcessedImage } from './processed-image';

/** Where re-encoded images go. One interface, a driver per backend (disk, Cloudinary). */
export interface ImageStorage {
  /**
   * Stores an image with its variants and returns the full image's URL, the one clients keep.
   * The variants' URLs and sizes must be derivable from it by @techit/contract/image-variants.
   */
  save(image: ProcessedImage): Promise<string>;
}

export const IMAGE_STORAGE = Symbol('IMAGE_STORAGE');
