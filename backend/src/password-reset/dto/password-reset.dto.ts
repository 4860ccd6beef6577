import { ApiProperty } from '@nestjs/swagger';
import type { PasswordResetConfirmRequest, PasswordResetRequest } from '@techit/contract/api-types';
import { LIMITS, PASSWORD_RESET } from '@techit/contract/limits';
import { IsEmail, IsNotEmpty, IsString, Length, MaxLength } from 'class-validator';
import { IsNotBlank, say, Trim } from '../../common/validation';

export class RequestPasswordResetDto implements PasswordResetRequest {
  @ApiProperty({ format: 'email', maxLength: LIMITS.emailMax })
  @Trim()
  @IsNotEmpty(say('email is required', 'Enter your email address.'))
  @IsString(say('email must be text', 'The email address must be text.'))
  @MaxLength(
    LIMITS.emailMax,
    say(
      `email must be at most ${LIMITS.emailMax} characters`,
      `The email address can have at most ${LIMITS.emailMax} characters.`,
    ),
  )
  @IsEmail({}, say('email must be a valid email address', 'Enter a valid email address, such as ada@example.com.'))
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

  // Sign-up's rules (auth/dto/sign-up.dto.ts), with its sentences.
  @ApiProperty({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax })
  @IsNotEmpty(say('password is required', 'Choose a password.'))
  @IsString(say('password must be text', 'The password must be text.'))
  @IsNotBlank(say('password is required', 'Choose a password.'))
  @Length(
    LIMITS.passwordMin,
    LIMITS.passwordMax,
    say(
      `password must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters`,
      `The password needs ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`,
    ),
  )
  password: string;
}
