import { Module } from '@nestjs/common';
import { PostsModule } from '../posts/posts.module';
import { TagsModule } from '../tags/tags.module';
import { UsersModule } from '../users/users.module';
import { FeedsController } from './feeds.controller';
import { FeedsRepository } from './feeds.repository';
import { FeedsService } from './feeds.service';

/** RSS/Atom feeds, robots.txt and the sitemaps (docs/decisions/045-feeds-and-sitemap.md). */
@Module({
  imports: [PostsModule, UsersModule, TagsModule],
  controllers: [FeedsController],
  providers: [FeedsRepository, FeedsService],
})
export class FeedsModule {}
