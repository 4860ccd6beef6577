import { ApiProperty } from '@nestjs/swagger';
import type { HealthReply } from '@techit/contract/api-types';
import type { Dialect } from '../../database/database.types';

export class HealthResponse implements HealthReply {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ enum: ['sqlite', 'postgres'] }) database: Dialect;
}
