import { mkdir, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { IMAGE_VARIANT_SUFFIX, sizedImageStem } from '@techit/contract/image-variants';
import { newObjectId } from '../common/object-id';
import type { ImageStorage, StoredImage } from './image-storage';
import type { ProcessedImage } from './processed-image';

/** `<id>-<width>x<height>`, or `<id>` alone for uploads stored before variants existed. */
const STEM = '[0-9a-f]{24}(?:-[1-9][0-9]{0,3}x[1-9][0-9]{0,3})?';
const FULL_URL = new RegExp(`^/uploads/(${STEM})\\.webp$`);
const STORED_FILE = new RegExp(`^(${STEM})(?:\\.card|\\.avatar)?\\.webp$`);
const KINDS = ['card', 'avatar', 'full'] as const;
/** Stats in flight at once while listing: enough to keep the disk busy, few enough file handles. */
const STAT_CONCURRENCY = 32;

/** The default: files under DATA_DIR/uploads, served by this server at /uploads/<name>. */
export class DiskImageStorage implements ImageStorage {
  constructor(private readonly directory: string) {}

  async save(image: ProcessedImage): Promise<string> {
    await mkdir(this.directory, { recursive: true });
    const stem = sizedImageStem(newObjectId(), image.full);
    const files = KINDS.map((kind) => ({
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

  /** Only names this driver writes: never the default avatar (an asset) or another site's URL. */
  owns(url: string): boolean {
    return FULL_URL.test(url);
  }

  async remove(url: string): Promise<void> {
    const stem = FULL_URL.exec(url)?.[1];
    if (!stem) return;
    await Promise.all(
      KINDS.map((kind) => rm(join(this.directory, `${stem}${IMAGE_VARIANT_SUFFIX[kind]}`), { force: true })),
    );
  }

  /** Opened before answering, so a file already gone is null rather than a stream that fails. */
  async read(url: string): Promise<Readable | null> {
    const stem = FULL_URL.exec(url)?.[1];
    if (!stem) return null;
    try {
      const handle = await open(join(this.directory, `${stem}${IMAGE_VARIANT_SUFFIX.full}`), 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /**
   * One entry per upload, dated by the newest mtime of its files: the disk keeps no other upload
   * time, and a file written a moment ago must never look old.
   */
  async list(): Promise<StoredImage[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const stored = names.filter((name) => STORED_FILE.test(name));
    const newest = new Map<string, number>();
    for (let start = 0; start < stored.length; start += STAT_CONCURRENCY) {
      const batch = stored.slice(start, start + STAT_CONCURRENCY);
      const times = await Promise.all(batch.map((name) => modifiedAt(join(this.directory, name))));
      batch.forEach((name, index) => {
        const time = times[index];
        if (time === null) return; // removed while listing
        const stem = STORED_FILE.exec(name)![1];
        newest.set(stem, Math.max(newest.get(stem) ?? 0, time));
      });
    }
    return [...newest].map(([stem, time]) => ({
      url: `/uploads/${stem}${IMAGE_VARIANT_SUFFIX.full}`,
      storedAt: new Date(time),
    }));
  }
}

async function modifiedAt(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
