import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newObjectId } from '../common/object-id';
import type { ImageStorage } from './image-storage';

/** The default: files under DATA_DIR/uploads, served by this server at /uploads/<name>. */
export class DiskImageStorage implements ImageStorage {
  constructor(private readonly directory: string) {}

  async save(webp: Buffer): Promise<string> {
    await mkdir(this.directory, { recursive: true });
    const name = `${newObjectId()}.webp`;
    await writeFile(join(this.directory, name), webp, { flag: 'wx' });
    return `/uploads/${name}`;
  }
}
