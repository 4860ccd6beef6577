import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { MessageReply } from '@techit/contract/api-types';
import type { FastifyRequest } from 'fastify';
import { MessageResponse } from '../auth/dto/auth.response';
import { ApiErrors } from '../common/api-errors.decorator';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { publicOrigin } from '../http/public-origin';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { ConfirmPasswordResetDto, RequestPasswordResetDto } from './dto/password-reset.dto';
import { PASSWORD_CHANGED, PasswordResetService, RESET_REQUESTED } from './password-reset.service';

@ApiTags('auth')
@Controller('password-reset')
export class PasswordResetController {
  constructor(
    private readonly resets: PasswordResetService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @RateLimit('passwordReset', 'passwordResetEmail')
  @ApiOperation({
    summary: 'Ask for a password reset link by email',
    description:
      'Always the same 200 reply, whether or not an account uses the email (no account enumeration). ' +
      'When one does and mail is configured, it gets a link to /reset-password?token=… that works once, within an hour.',
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(400)
  request(@Body() body: RequestPasswordResetDto, @Req() request: FastifyRequest): MessageReply {
    this.resets.request(body.email, publicOrigin(request, this.config.publicUrl));
    return { message: RESET_REQUESTED };
  }

  @Post('confirm')
  @HttpCode(200)
  @RateLimit('passwordReset')
  @ApiOperation({
    summary: 'Choose a new password with the token of a reset link',
    description:
      'Sets the password (sign-up’s rules), uses the link up with every other link of the account, and ends every session. ' +
      'An unknown, used or expired token is a 400 and changes nothing.',
  })
  @ApiOkResponse({ type: MessageResponse })
  @ApiErrors(400)
  async confirm(@Body() body: ConfirmPasswordResetDto): Promise<MessageReply> {
    await this.resets.confirm(body.token, body.password);
    return { message: PASSWORD_CHANGED };
  }
}
