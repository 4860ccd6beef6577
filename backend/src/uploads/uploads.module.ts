import { join } from 'node:path';
import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { CloudinaryImageStorage } from './cloudinary-image-storage';
import { DiskImageStorage } from './disk-image-storage';
import { ImageProcessor } from './image-processor';
import { IMAGE_STORAGE, type ImageStorage } from './image-storage';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

export function uploadsDirectory(config: AppConfig): string {
  return join(config.dataDir, 'uploads');
}

@Module({
  controllers: [UploadsController],
  providers: [
    ImageProcessor,
    UploadsService,
    {
      provide: IMAGE_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ImageStorage =>
        config.cloudinaryUrl
          ? new CloudinaryImageStorage(config.cloudinaryUrl)
          : new DiskImageStorage(uploadsDirectory(config)),
    },
  ],
})
export class UploadsModule {}
