import { ApiProperty } from '@nestjs/swagger';
import type { PasswordResetConfirmRequest, PasswordResetRequest } from '@techit/contract/api-types';
import { PASSWORD_RESET } from '@techit/contract/limits';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsAccountEmail, IsNewPassword } from '../../auth/dto/account-field-rules';
import { say, Trim } from '../../common/validation';

export class RequestPasswordResetDto implements PasswordResetRequest {
  @IsAccountEmail()
  email: string;
}

export class ConfirmPasswordResetDto implements PasswordResetConfirmRequest {
  @ApiProperty({ description: 'The token of the link in the reset mail (or printed by npm run admin)' })
  @Trim()
  @IsNotEmpty(say('token is required', 'Open the link from the reset mail again.'))
  @IsString(say('token must be text', 'Open the link from the reset mail again.'))
  @MaxLength(
    PASSWORD_RESET.tokenMax,
    say(`token must be at most ${PASSWORD_RESET.tokenMax} characters`, 'Open the link from the reset mail again.'),
  )
  token: string;

  @IsNewPassword()
  password: string;
}
