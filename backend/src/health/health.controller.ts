import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { HealthReply } from '@techit/contract/api-types';
import { sql } from 'kysely';
import { DATABASE, DATABASE_DIALECT } from '../database/database.tokens';
import type { Db, Dialect } from '../database/database.types';

class HealthResponse implements HealthReply {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ enum: ['sqlite', 'postgres'] }) database: Dialect;
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(DATABASE_DIALECT) private readonly dialect: Dialect,
  ) {}

  /** For load balancers and container health checks: answers only when the database does. */
  @Get('health')
  @ApiOperation({ summary: 'Liveness and database check' })
  @ApiOkResponse({ type: HealthResponse })
  async health(): Promise<HealthReply> {
    await sql`select 1`.execute(this.db);
    return { status: 'ok', database: this.dialect };
  }
}
