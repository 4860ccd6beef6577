import { forwardRef, Module } from '@nestjs/common';
import { PostsModule } from '../posts/posts.module';
import { SearchModule } from '../search/search.module';
import { BookmarksController } from './bookmarks.controller';
import { BookmarksRepository } from './bookmarks.repository';
import { BookmarksService } from './bookmarks.service';

@Module({
  // Posts present the saved posts (compact, as the feeds do) and ask the repository which posts of
  // every page the reader saved: each module needs the other, hence forwardRef on both sides.
  imports: [forwardRef(() => PostsModule), SearchModule],
  controllers: [BookmarksController],
  providers: [BookmarksRepository, BookmarksService],
  exports: [BookmarksRepository],
})
export class BookmarksModule {}
