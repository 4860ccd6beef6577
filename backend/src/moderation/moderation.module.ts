import { Module } from '@nestjs/common';
import { PasswordResetModule } from '../password-reset/password-reset.module';
import { UsersModule } from '../users/users.module';
import { ModerationController } from './moderation.controller';
import { ModerationRepository } from './moderation.repository';
import { ModerationService } from './moderation.service';

@Module({
  imports: [UsersModule, PasswordResetModule],
  controllers: [ModerationController],
  providers: [ModerationRepository, ModerationService],
})
export class ModerationModule {}
