import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ownWriteMarksProvider } from './own-write-marks';
import { ReaderStateRepository } from './reader-state.repository';
import { ReaderStateService } from './reader-state.service';

@Module({
  imports: [AuthModule],
  providers: [ReaderStateRepository, ReaderStateService, ownWriteMarksProvider],
  exports: [ReaderStateService],
})
export class ReaderStateModule {}
