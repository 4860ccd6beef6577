import { Inject, Injectable } from '@nestjs/common';
import { ImageProcessor } from './image-processor';
import { IMAGE_STORAGE, type ImageStorage } from './image-storage';

@Injectable()
export class UploadsService {
  constructor(
    private readonly processor: ImageProcessor,
    @Inject(IMAGE_STORAGE) private readonly storage: ImageStorage,
  ) {}

  async store(file: Buffer): Promise<string> {
    return this.storage.save(await this.processor.toWebp(file));
  }
}
