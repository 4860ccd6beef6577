import { Module } from '@nestjs/common';
import { DATABASE_DIALECT } from '../database/database.tokens';
import type { Dialect } from '../database/database.types';
import { TagsModule } from '../tags/tags.module';
import { POST_SEARCH_REPOSITORY } from './post-search.repository';
import { PostgresPostSearchRepository } from './post-search.postgres.repository';
import { SqlitePostSearchRepository } from './post-search.sqlite.repository';
import { SearchController } from './search.controller';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

@Module({
  // A post result carries its tags, read for the page as every post list does.
  imports: [TagsModule],
  controllers: [SearchController],
  providers: [
    SqlitePostSearchRepository,
    PostgresPostSearchRepository,
    {
      // Each database's own full-text engine behind one interface (decision 034).
      provide: POST_SEARCH_REPOSITORY,
      inject: [DATABASE_DIALECT, SqlitePostSearchRepository, PostgresPostSearchRepository],
      useFactory: (dialect: Dialect, sqlite: SqlitePostSearchRepository, postgres: PostgresPostSearchRepository) =>
        dialect === 'sqlite' ? sqlite : postgres,
    },
    SearchRepository,
    SearchService,
  ],
  // The bookmarks search within themselves with the same parser and index (decision 043).
  exports: [SearchService],
})
export class SearchModule {}
