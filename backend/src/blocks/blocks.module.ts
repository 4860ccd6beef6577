import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { UsersModule } from '../users/users.module';
import { BlockRulesModule } from './block-rules.module';
import { BlocksController } from './blocks.controller';
import { BlocksService } from './blocks.service';

@Module({
  // Users: the follows a block ends; notifications: their unread follow notifications go too.
  imports: [BlockRulesModule, UsersModule, NotificationsModule],
  controllers: [BlocksController],
  providers: [BlocksService],
})
export class BlocksModule {}
