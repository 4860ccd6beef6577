/** Where re-encoded images go. One interface, a driver per backend (disk, Cloudinary). */
export interface ImageStorage {
  /** Stores a WebP image and returns the URL clients use to show it. */
  save(webp: Buffer): Promise<string>;
}

export const IMAGE_STORAGE = Symbol('IMAGE_STORAGE');
