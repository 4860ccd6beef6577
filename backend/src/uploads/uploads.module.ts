import { join } from 'node:path';
import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { CloudinaryImageStorage } from './cloudinary-image-storage';
import { DiskImageStorage } from './disk-image-storage';
import { ImageProcessor } from './image-processor';
import { ImageReleaseService } from './image-release.service';
import { IMAGE_STORAGE, type ImageStorage } from './image-storage';
import { OrphanSweepService } from './orphan-sweep.service';
import { S3ImageStorage } from './s3-image-storage';
import { UploadsController } from './uploads.controller';
import { UploadsRepository } from './uploads.repository';
import { UploadsService } from './uploads.service';

export function uploadsDirectory(config: AppConfig): string {
  return join(config.dataDir, 'uploads');
}

@Module({
  controllers: [UploadsController],
  providers: [
    ImageProcessor,
    UploadsService,
    UploadsRepository,
    ImageReleaseService,
    OrphanSweepService,
    {
      provide: IMAGE_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ImageStorage =>
        config.s3
          ? new S3ImageStorage(config.s3)
          : config.cloudinaryUrl
            ? new CloudinaryImageStorage(config.cloudinaryUrl)
            : new DiskImageStorage(uploadsDirectory(config)),
    },
  ],
  // Posts and users free the images their changes let go of; Markdown shows only images the storage owns.
  exports: [ImageReleaseService, IMAGE_STORAGE],
})
export class UploadsModule {}
