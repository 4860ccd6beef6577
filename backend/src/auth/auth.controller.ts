import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { MessageReply, SignInReply } from '@techit/contract/api-types';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import type { AuthUser } from './auth-user';
import { AuthService } from './auth.service';
import { Authenticated } from './authenticated.decorator';
import { CurrentUser } from './current-user.decorator';
import { MessageResponse, SignInResponse } from './dto/auth.response';
import { SignInDto } from './dto/sign-in.dto';
import { SignUpDto } from './dto/sign-up.dto';

@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('signup')
  @RateLimit('signUp')
  @ApiOperation({ summary: 'Create an account' })
  @ApiCreatedResponse({ type: MessageResponse })
  @ApiErrors(400, 409)
  async signUp(@Body() body: SignUpDto): Promise<MessageReply> {
    await this.auth.signUp(body);
    return { message: 'Signed up successfully' };
  }

  @Post('signin')
  @RateLimit('signIn', 'signInUserName')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with a userName (or email) and password' })
  @ApiOkResponse({ type: SignInResponse })
  @ApiErrors(400, 401)
  signIn(@Body() body: SignInDto): Promise<SignInReply> {
    return this.auth.signIn(body);
  }

  @Post('logout-all')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Sign out of all devices',
    description: 'Every token issued to the caller so far, this one included, answers 401 from now on.',
  })
  @ApiOkResponse({ type: MessageResponse })
  async logoutAll(@CurrentUser() me: AuthUser): Promise<MessageReply> {
    await this.auth.logoutAll(me.id);
    return { message: 'Signed out of all devices' };
  }
}
