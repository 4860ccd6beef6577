import type { Readable } from 'node:stream';
import type { ProcessedImage } from './processed-image';

/** An image a storage holds: the full image's URL (what rows keep) and when it was stored. */
export interface StoredImage {
  url: string;
  storedAt: Date;
}

/** Where re-encoded images go. One interface, a driver per backend (disk, Cloudinary, S3). */
export interface ImageStorage {
  /**
   * Stores an image with its variants and returns the full image's URL, the one clients keep.
   * The variants' URLs and sizes must be derivable from it by @techit/contract/image-variants.
   */
  save(image: ProcessedImage): Promise<string>;

  /**
   * Whether the URL names an image this storage stored, so remove() may delete it. False for the
   * default picture, for pictures on other sites and for a variant's URL.
   */
  owns(url: string): boolean;

  /** Deletes the image and all its variants; an image already gone or not owned is left alone. */
  remove(url: string): Promise<void>;

  /**
   * Every image it holds, for the orphan sweep. Absent when listing is not cheap (Cloudinary):
   * such a storage only frees images when their row lets go of them.
   */
  list?(): Promise<StoredImage[]>;

  /**
   * The full image's bytes as a stream, for a user's data export (account/); null when it is not
   * ours or is gone. Absent where reading back is not offered (Cloudinary, whose Admin API is
   * rate-limited): the export then lists the image's URL only.
   */
  read?(url: string): Promise<Readable | null>;
}

export const IMAGE_STORAGE = Symbol('IMAGE_STORAGE');
