import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { OnApplicationShutdown } from '@nestjs/common';
import { IMAGE_VARIANT_SUFFIX, sizedImageStem } from '@techit/contract/image-variants';
import { ServiceUnavailableError } from '../common/app-errors';
import { newObjectId } from '../common/object-id';
import type { S3Settings } from '../config/app-config';
import type { ImageStorage, StoredImage } from './image-storage';
import type { ProcessedImage } from './processed-image';

const KINDS = ['full', 'card', 'avatar'] as const;
const STEM = '[0-9a-f]{24}-[1-9][0-9]{0,3}x[1-9][0-9]{0,3}';
const STORED_KEY = new RegExp(`^(${STEM})(?:\\.card|\\.avatar)?\\.webp$`);
/** An object's key never changes content (a fresh id per upload): browsers and CDNs may keep it a year. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Used when the S3_* settings are set: the three WebP files of an upload as objects of one bucket
 * on any S3-compatible store (AWS S3, MinIO, Ceph, R2), named as on disk (`<id>-<w>x<h>.webp`,
 * `….card.webp`, `….avatar.webp`), so that every instance behind a load balancer serves every
 * image. Browsers fetch them from S3_PUBLIC_URL (the bucket, or a CDN in front of it), never
 * through this server.
 */
export class S3ImageStorage implements ImageStorage, OnApplicationShutdown {
  private readonly client: S3Client;
  private readonly ownUrl: RegExp;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      // A store that is down must fail the upload within seconds, never hold it until the client gives up.
      requestHandler: { connectionTimeout: 3000, requestTimeout: 20_000, throwOnRequestTimeout: true },
      maxAttempts: 2,
      // Checksums only where the API requires them: several S3-compatible stores reject the
      // SDK's newer default trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const base = settings.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.ownUrl = new RegExp(`^${base}/(${STEM})\\.webp$`);
  }

  async save(image: ProcessedImage): Promise<string> {
    const stem = sizedImageStem(newObjectId(), image.full);
    const keys = KINDS.map((kind) => `${stem}${IMAGE_VARIANT_SUFFIX[kind]}`);
    const writes = await Promise.allSettled(
      KINDS.map((kind, index) =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.settings.bucket,
            Key: keys[index],
            Body: image[kind].data,
            ContentType: 'image/webp',
            CacheControl: CACHE_CONTROL,
          }),
        ),
      ),
    );
    const failure = writes.find((write) => write.status === 'rejected');
    if (failure) {
      // No half-stored image: a URL handed out always has all its variants. Best effort, as the
      // store is failing; the orphan sweep removes whatever is left.
      await Promise.allSettled(
        keys.filter((_, index) => writes[index].status === 'fulfilled').map((key) => this.deleteObject(key)),
      );
      throw new ServiceUnavailableError('The image could not be stored right now; please try again', {
        cause: failure.reason,
      });
    }
    return `${this.settings.publicUrl}/${keys[0]}`;
  }

  /** Only full-image URLs under S3_PUBLIC_URL with a name this driver gives. */
  owns(url: string): boolean {
    return this.ownUrl.test(url);
  }

  /** Deleting a key that is already gone succeeds in S3: removing twice (two instances) is harmless. */
  async remove(url: string): Promise<void> {
    const stem = this.ownUrl.exec(url)?.[1];
    if (!stem) return;
    await Promise.all(KINDS.map((kind) => this.deleteObject(`${stem}${IMAGE_VARIANT_SUFFIX[kind]}`)));
  }

  /** One entry per upload, dated by its newest object; objects not named by this driver are ignored. */
  async list(): Promise<StoredImage[]> {
    const newest = new Map<string, number>();
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const stem = object.Key === undefined ? undefined : STORED_KEY.exec(object.Key)?.[1];
        if (!stem || !object.LastModified) continue;
        newest.set(stem, Math.max(newest.get(stem) ?? 0, object.LastModified.getTime()));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return [...newest].map(([stem, time]) => ({
      url: `${this.settings.publicUrl}/${stem}${IMAGE_VARIANT_SUFFIX.full}`,
      storedAt: new Date(time),
    }));
  }

  /** The full image's object as it streams in; null when it is not ours or is gone. */
  async read(url: string): Promise<Readable | null> {
    const stem = this.ownUrl.exec(url)?.[1];
    if (!stem) return null;
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: `${stem}${IMAGE_VARIANT_SUFFIX.full}` }),
      );
      return object.Body instanceof Readable ? object.Body : null;
    } catch (error) {
      if ((error as { name?: unknown }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  /** Closes the client's kept-alive sockets, so a stopping server is not held open by them. */
  onApplicationShutdown(): void {
    this.client.destroy();
  }

  private async deleteObject(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }
}
