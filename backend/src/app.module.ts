import { type DynamicModule, Module } from '@nestjs/common';
import { ReaderStateModule } from './reader-state/reader-state.module';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { BlocksModule } from './blocks/blocks.module';
import { AccountModule } from './account/account.module';
import { BookmarksModule } from './bookmarks/bookmarks.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import type { Db, Dialect } from './database/database.types';
import { HealthModule } from './health/health.module';
import { DraftsModule } from './drafts/drafts.module';
import { FeedsModule } from './feeds/feeds.module';
import { MarkdownModule } from './markdown/markdown.module';
import { ModerationModule } from './moderation/moderation.module';
import { NoticesModule } from './notices/notices.module';
import { NotificationsModule } from './notifications/notifications.module';
import { PagesModule } from './pages/pages.module';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { PostsModule } from './posts/posts.module';
import { TagsModule } from './tags/tags.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { SearchModule } from './search/search.module';
import { UploadsModule } from './uploads/uploads.module';
import { UsersModule } from './users/users.module';

/** Composition only: every feature is a module of its own. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, jwtSecret: string, db: Db, dialect: Dialect): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, jwtSecret),
        DatabaseModule.forRoot(db, dialect),
        RateLimitModule.forRoot(config),
        AdminModule,
        AuthModule,
        UsersModule,
        PostsModule,
        BookmarksModule,
        BlocksModule,
        AccountModule,
        TagsModule,
        NoticesModule,
        NotificationsModule,
        DraftsModule,
        UploadsModule,
        MarkdownModule,
        ModerationModule,
        SearchModule,
        HealthModule,
        PagesModule,
        ReaderStateModule,
        FeedsModule,
        PasswordResetModule,
      ],
    };
  }
}
