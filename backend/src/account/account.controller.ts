import { Body, Controller, Delete, HttpCode, Post, Put, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { ChangePasswordReply, Me } from '@techit/contract/api-types';
import type { FastifyReply } from 'fastify';
import type { AuthUser } from '../auth/auth-user';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { MeResponse } from '../users/dto/user.response';
import { AccountService } from './account.service';
import { ChangePasswordResponse } from './dto/account.response';
import { ChangeEmailDto } from './dto/change-email.dto';
import { ChangePasswordDto } from './dto/change-password.dto';
import { DeleteAccountDto } from './dto/delete-account.dto';

/** Accounts people control (docs/decisions/049-accounts-people-control.md). */
@ApiTags('account')
@Controller()
export class AccountController {
  constructor(private readonly account: AccountService) {}

  // Each route that takes the password is limited like sign-in: a stolen token must not become
  // a way to guess the password.
  @Put('password')
  @RateLimit('signIn')
  @Authenticated()
  @ApiOperation({
    summary: 'Change the password',
    description:
      'Every other session ends (their tokens answer 401, and so does the one sent); the reply carries the token for this session.',
  })
  @ApiOkResponse({ type: ChangePasswordResponse })
  @ApiErrors(400, 403)
  async changePassword(@CurrentUser() me: AuthUser, @Body() body: ChangePasswordDto): Promise<ChangePasswordReply> {
    const token = await this.account.changePassword(me, body.current, body.next);
    return { message: 'Password changed; every other session has ended', token };
  }

  @Put('email')
  @RateLimit('signIn')
  @Authenticated()
  @ApiOperation({ summary: 'Change the email address (the password confirms it)' })
  @ApiOkResponse({ type: MeResponse })
  @ApiErrors(400, 403, 409)
  changeEmail(@CurrentUser() me: AuthUser, @Body() body: ChangeEmailDto): Promise<Me> {
    return this.account.changeEmail(me, body.password, body.email);
  }

  @Post('export')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Download my data',
    description:
      'A ZIP of JSON and Markdown of everything you wrote, liked, followed, bookmarked and drafted, and your images. One a day: 429 with Retry-After before then.',
  })
  @ApiProduces('application/zip')
  @ApiOkResponse({ description: 'The archive, streamed' })
  @ApiErrors(429)
  async export(@CurrentUser() me: AuthUser, @Res() reply: FastifyReply): Promise<void> {
    const started = await this.account.startExport(me);
    if ('retryAfterSeconds' in started) {
      const hours = Math.ceil(started.retryAfterSeconds / 3600);
      await reply
        .status(429)
        .header('Retry-After', String(started.retryAfterSeconds))
        .send({ error: `You can download your data once a day; try again in ${hours} hour${hours === 1 ? '' : 's'}` });
      return;
    }
    await reply
      .status(200)
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="${started.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(started.archive);
  }

  @Delete('account')
  @HttpCode(204)
  @RateLimit('signIn')
  @Authenticated()
  @ApiOperation({
    summary: 'Delete my account',
    description:
      'At once: every session ends and the account is gone. content "delete" removes your posts, notices and comments (a comment with replies stays as "[deleted]"); "anonymise" keeps them, shown as by "[deleted user]".',
  })
  @ApiNoContentResponse()
  @ApiErrors(400, 403)
  async deleteAccount(@CurrentUser() me: AuthUser, @Body() body: DeleteAccountDto): Promise<void> {
    await this.account.deleteAccount(me, body.password, body.content);
  }
}
