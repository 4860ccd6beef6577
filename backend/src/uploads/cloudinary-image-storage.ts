import { v2 as cloudinary, type UploadApiOptions, type UploadApiResponse } from 'cloudinary';
import type { ImageStorage } from './image-storage';

/** The part of the Cloudinary SDK this driver uses (a seam for tests: no account is reachable there). */
export interface CloudinaryUploader {
  upload_stream(
    options: UploadApiOptions,
    callback: (error: unknown, result?: UploadApiResponse) => void,
  ): { end(chunk: Buffer): void };
}

/** Used when CLOUDINARY_URL is set: the same re-encoded WebP, hosted by Cloudinary. */
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

  save(webp: Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      this.uploader
        .upload_stream({ resource_type: 'image', folder: 'techit', format: 'webp' }, (error, result) => {
          if (error || !result?.secure_url) reject(new Error(`Cloudinary upload failed: ${describe(error)}`));
          else resolve(result.secure_url);
        })
        .end(webp);
    });
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return 'no URL in the reply';
}
