import { Module } from '@nestjs/common';
import { NoticesModule } from '../notices/notices.module';
import { PostsModule } from '../posts/posts.module';
import { TagsModule } from '../tags/tags.module';
import { UsersModule } from '../users/users.module';
import { PagesService } from './pages.service';

/** Server-rendered pages (docs/decisions/044): their routes are Fastify's, registered by web/web-app.ts. */
@Module({
  imports: [PostsModule, UsersModule, TagsModule, NoticesModule],
  providers: [PagesService],
  exports: [PagesService],
})
export class PagesModule {}
