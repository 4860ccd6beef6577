import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { Mailer } from './mailer';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetRepository } from './password-reset.repository';
import { PasswordResetService } from './password-reset.service';

@Module({
  // AuthModule's PasswordHasher: one pool of hashing slots for the whole server.
  imports: [AuthModule],
  controllers: [PasswordResetController],
  providers: [PasswordResetRepository, PasswordResetService, Mailer],
  exports: [PasswordResetService],
})
export class PasswordResetModule {}
