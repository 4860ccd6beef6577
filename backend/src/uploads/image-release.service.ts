import { Inject, Injectable, Logger } from '@nestjs/common';
import { IMAGE_STORAGE, type ImageStorage } from './image-storage';
import { UploadsRepository } from './uploads.repository';

/**
 * Frees the images a change let go of (a deleted post's photo, a replaced picture). Services call
 * it after the change committed, so a rolled-back change never loses its image.
 */
@Injectable()
export class ImageReleaseService {
  private readonly logger = new Logger('Uploads');

  constructor(
    @Inject(IMAGE_STORAGE) private readonly storage: ImageStorage,
    private readonly uploads: UploadsRepository,
  ) {}

  /**
   * Removes each image that is ours and that no row shows any more: a picture another post or a
   * profile still uses stays, and so do the default picture and other sites' URLs. Never throws:
   * the change is already saved, and an image left behind is the orphan sweep's to remove.
   */
  async release(...urls: string[]): Promise<void> {
    const candidates = [...new Set(urls)].filter((url) => this.storage.owns(url));
    if (candidates.length === 0) return;
    try {
      const stillShown = await this.uploads.referenced(candidates);
      await Promise.all(candidates.filter((url) => !stillShown.has(url)).map((url) => this.storage.remove(url)));
    } catch (error) {
      this.logger.warn(
        `Could not free ${candidates.join(', ')}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
