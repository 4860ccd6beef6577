import { ApiProperty } from '@nestjs/swagger';
import type { MessageReply, SignInReply } from '@techit/contract/api-types';
import { MeResponse } from '../../users/dto/user.response';

export class MessageResponse implements MessageReply {
  @ApiProperty({ example: 'Signed up successfully' }) message: string;
}

export class SignInResponse implements SignInReply {
  @ApiProperty({ description: 'Send as "Authorization: Bearer <token>"; valid for 30 days' }) token: string;
  @ApiProperty({ type: MeResponse }) user: MeResponse;
}
