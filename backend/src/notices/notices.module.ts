import { BlockRulesModule } from '../blocks/block-rules.module';
import { Module } from '@nestjs/common';
import { DraftsModule } from '../drafts/drafts.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MarkdownModule } from '../markdown/markdown.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { UsersModule } from '../users/users.module';
import { NoticesController } from './notices.controller';
import { NoticesRepository } from './notices.repository';
import { NoticesService } from './notices.service';

@Module({
  imports: [IdempotencyModule, UsersModule, DraftsModule, MarkdownModule, NotificationsModule, BlockRulesModule],
  controllers: [NoticesController],
  providers: [NoticesRepository, NoticesService],
  exports: [NoticesService],
})
export class NoticesModule {}
