import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { MessageReply, SignInReply } from '@techit/contract/api-types';
import { ApiErrors } from '../common/api-errors.decorator';
import { AuthService } from './auth.service';
import { MessageResponse, SignInResponse } from './dto/auth.response';
import { SignInDto } from './dto/sign-in.dto';
import { SignUpDto } from './dto/sign-up.dto';

@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('signup')
  @ApiOperation({ summary: 'Create an account' })
  @ApiCreatedResponse({ type: MessageResponse })
  @ApiErrors(400, 409)
  async signUp(@Body() body: SignUpDto): Promise<MessageReply> {
    await this.auth.signUp(body);
    return { message: 'Signed up successfully' };
  }

  @Post('signin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with a userName (or email) and password' })
  @ApiOkResponse({ type: SignInResponse })
  @ApiErrors(400, 401)
  signIn(@Body() body: SignInDto): Promise<SignInReply> {
    return this.auth.signIn(body);
  }
}
