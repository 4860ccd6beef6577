import { Module } from '@nestjs/common';
import { BlockRules } from './block-rules';
import { BlocksRepository } from './blocks.repository';

/**
 * The block rule alone (no routes, no imports), for the features whose writes it guards (follows,
 * posts, comments, notices): BlocksModule needs UsersModule to end follows, and UsersModule needs
 * the rule, so the rule lives apart and neither import goes in a circle.
 */
@Module({
  providers: [BlocksRepository, BlockRules],
  exports: [BlocksRepository, BlockRules],
})
export class BlockRulesModule {}
