import { ApiProperty } from '@nestjs/swagger';
import type { ChangePasswordReply } from '@techit/contract/api-types';

export class ChangePasswordResponse implements ChangePasswordReply {
  @ApiProperty({ example: 'Password changed; every other session has ended' }) message: string;
  @ApiProperty({ description: 'The token for this session from now on (the one sent answers 401)' }) token: string;
}
