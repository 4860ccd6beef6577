import { v2 as cloudinary, type UploadApiOptions, type UploadApiResponse } from 'cloudinary';
import { cloudinaryTransformation, sizedImageStem } from '@techit/contract/image-variants';
import { newObjectId } from '../common/object-id';
import type { ImageStorage } from './image-storage';
import type { ProcessedImage } from './processed-image';

/** The part of the Cloudinary SDK this driver uses (a seam for tests: no account is reachable there). */
export interface CloudinaryUploader {
  upload_stream(
    options: UploadApiOptions,
    callback: (error: unknown, result?: UploadApiResponse) => void,
  ): { end(chunk: Buffer): void };
  destroy(publicId: string, options: { resource_type: 'image'; invalidate: boolean }): Promise<unknown>;
}

const FOLDER = 'techit';
const STEM = '[0-9a-f]{24}-[1-9][0-9]{0,3}x[1-9][0-9]{0,3}';

/**
 * Used when CLOUDINARY_URL is set: the same re-encoded WebP, hosted by Cloudinary. Only the full
 * image is sent; the variants are Cloudinary URL transformations of it, generated eagerly at
 * upload so the first reader does not wait. The public id carries the pixel size as on disk.
 */
export class CloudinaryImageStorage implements ImageStorage {
  private readonly uploader: CloudinaryUploader;
  /** Our uploads only: this cloud, the techit folder, a name this driver gave. */
  private readonly ownUrl: RegExp;

  constructor(cloudinaryUrl: string, uploader?: CloudinaryUploader) {
    const url = new URL(cloudinaryUrl);
    cloudinary.config({
      cloud_name: url.hostname,
      api_key: decodeURIComponent(url.username),
      api_secret: decodeURIComponent(url.password),
      secure: true,
    });
    this.uploader = uploader ?? cloudinary.uploader;
    const cloud = url.hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.ownUrl = new RegExp(
      `^https?://res\\.cloudinary\\.com/${cloud}/image/upload/(?:v[0-9]+/)?(${FOLDER}/${STEM})\\.webp$`,
    );
  }

  save(image: ProcessedImage): Promise<string> {
    const options: UploadApiOptions = {
      resource_type: 'image',
      folder: FOLDER,
      format: 'webp',
      public_id: sizedImageStem(newObjectId(), image.full),
      overwrite: false,
      eager: [cloudinaryTransformation('card', image.full), cloudinaryTransformation('avatar', image.full)].join('|'),
    };
    return new Promise((resolve, reject) => {
      this.uploader
        .upload_stream(options, (error, result) => {
          if (error || !result?.secure_url) reject(new Error(`Cloudinary upload failed: ${describe(error)}`));
          else resolve(result.secure_url);
        })
        .end(image.full.data);
    });
  }

  owns(url: string): boolean {
    return this.ownUrl.test(url);
  }

  /** The eager card and avatar copies are derived resources: Cloudinary deletes them with it. */
  async remove(url: string): Promise<void> {
    const publicId = this.ownUrl.exec(url)?.[1];
    if (!publicId) return;
    let reply: unknown;
    try {
      reply = await this.uploader.destroy(publicId, { resource_type: 'image', invalidate: true });
    } catch (error) {
      throw new Error(`Cloudinary delete failed: ${describe(error)}`);
    }
    const result = (reply as { result?: unknown } | undefined)?.result;
    // "not found" is the goal reached already (deleted by hand, or by another instance).
    if (result !== 'ok' && result !== 'not found') {
      throw new Error(`Cloudinary delete failed: ${JSON.stringify(result ?? reply ?? null)}`);
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return 'no URL in the reply';
}
