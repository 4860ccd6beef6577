import { Module } from '@nestjs/common';
import { TagsController } from './tags.controller';
import { TagsRepository } from './tags.repository';
import { TagsService } from './tags.service';

@Module({
  controllers: [TagsController],
  providers: [TagsRepository, TagsService],
  // Posts write a post's tags in their own transactions and read them into every Post reply;
  // search's type=tags is the autocomplete paged (TagsService.byPrefix).
  exports: [TagsRepository, TagsService],
})
export class TagsModule {}
