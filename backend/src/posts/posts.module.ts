import { forwardRef, Module } from '@nestjs/common';
import { BlockRulesModule } from '../blocks/block-rules.module';
import { BookmarksModule } from '../bookmarks/bookmarks.module';
import { DraftsModule } from '../drafts/drafts.module';
import { UploadsModule } from '../uploads/uploads.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MarkdownModule } from '../markdown/markdown.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { TagsModule } from '../tags/tags.module';
import { UsersModule } from '../users/users.module';
import { PostsController } from './posts.controller';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';

@Module({
  imports: [
    IdempotencyModule,
    UsersModule,
    UploadsModule,
    DraftsModule,
    MarkdownModule,
    TagsModule,
    NotificationsModule,
    BlockRulesModule,
    // Which of a page's posts the reader saved (bookmarked in every Post reply); bookmarks list
    // their posts through PostsService, so the import goes both ways.
    forwardRef(() => BookmarksModule),
  ],
  controllers: [PostsController],
  providers: [PostsRepository, PostsService],
  // Feeds list posts through the same reads as the API's feeds.
  exports: [PostsService],
})
export class PostsModule {}
