import { Inject, Injectable } from '@nestjs/common';
import { ImageProcessor } from './image-processor';
import { IMAGE_STORAGE, type ImageStorage } from './image-storage';

@Injectable()
export class UploadsService {
  constructor(
    private readonly processor: ImageProcessor,
    @Inject(IMAGE_STORAGE) private readonly storage: ImageStorage,
  ) {}

  /** Returns the full image's URL (what posts.photo and users.pic keep); its variants derive from it. */
  async store(file: Buffer): Promise<string> {
    return this.storage.save(await this.processor.process(file));
  }
}
