import { Global, Module } from '@nestjs/common';
import { AdminPolicy } from './admin-policy';

@Global()
@Module({ providers: [AdminPolicy], exports: [AdminPolicy] })
export class AdminModule {}
