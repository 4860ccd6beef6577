import { Module } from '@nestjs/common';
import { UploadsModule } from '../uploads/uploads.module';
import { UsersModule } from '../users/users.module';
import { MarkdownService } from './markdown.service';
import { PreviewController } from './preview.controller';
import { RerenderRepository } from './rerender.repository';
import { RerenderService } from './rerender.service';

@Module({
  imports: [UsersModule, UploadsModule],
  controllers: [PreviewController],
  providers: [MarkdownService, RerenderRepository, RerenderService],
  // Posts, comments and notices render on save with the same service (docs/decisions/028-stored-html.md).
  exports: [MarkdownService],
})
export class MarkdownModule {}
