import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { HealthReply } from '@techit/contract/api-types';
import { HealthResponse } from './dto/health.response';
import { HealthRepository } from './health.repository';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly repository: HealthRepository) {}

  /** For load balancers and container health checks: answers only when the database does. */
  @Get('health')
  @ApiOperation({ summary: 'Liveness and database check' })
  @ApiOkResponse({ type: HealthResponse })
  async health(): Promise<HealthReply> {
    await this.repository.ping();
    return { status: 'ok', database: this.repository.dialect };
  }
}
