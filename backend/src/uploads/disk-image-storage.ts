import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IMAGE_VARIANT_SUFFIX, sizedImageStem } from '@techit/contract/image-variants';
import { newObjectId } from '../common/object-id';
import type { ImageStorage } from './image-storage';
import type { ProcessedImage } from './processed-image';

/** The default: files under DATA_DIR/uploads, served by this server at /uploads/<name>. */
export class DiskImageStorage implements ImageStorage {
  constructor(private readonly directory: string) {}

  async save(image: ProcessedImage): Promise<string> {
    await mkdir(this.directory, { recursive: true });
    const stem = sizedImageStem(newObjectId(), image.full);
    const files = (['card', 'avatar', 'full'] as const).map((kind) => ({
      path: join(this.directory, `${stem}${IMAGE_VARIANT_SUFFIX[kind]}`),
      data: image[kind].data,
    }));
    const writes = await Promise.allSettled(files.map((file) => writeFile(file.path, file.data, { flag: 'wx' })));
    const failure = writes.find((write) => write.status === 'rejected');
    if (failure) {
      // No half-stored image: a URL handed out always has all its variants on disk.
      await Promise.all(files.filter((_, i) => writes[i].status === 'fulfilled').map((file) => rm(file.path)));
      throw failure.reason;
    }
    return `/uploads/${stem}${IMAGE_VARIANT_SUFFIX.full}`;
  }
}
