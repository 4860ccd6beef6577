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
}

/**
 * Used when CLOUDINARY_URL is set: the same re-encoded WebP, hosted by Cloudinary. Only the full
 * image is sent; the variants are Cloudinary URL transformations of it, generated eagerly at
 * upload so the first reader does not wait. The public id carries the pixel size as on disk.
 */
export class CloudinaryImageStorage implements ImageStorage {
  private readonly uploader: CloudinaryUploader;

  constructor(cloudinaryUrl: string, uploader?: CloudinaryUploader) {
    const url = new URL(cloudinaryUrl);
    cloudinary.config({
      cloud_name: url.hostname,
      api_key: decodeURIComponent(url.username),
      api_secret: decodeURIComponent(url.password),
      secure: true,
    });
    this.uploader = uploader ?? cloudinary.uploader;
  }

  save(image: ProcessedImage): Promise<string> {
    const options: UploadApiOptions = {
      resource_type: 'image',
      folder: 'techit',
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
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return 'no URL in the reply';
}
