import { ApiProperty } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { say, Trim } from '../../common/validation';

export class ChangeEmailDto {
  @ApiProperty({ description: 'The password the account has now' })
  @IsNotEmpty(say('password is required', 'Enter your password.'))
  @IsString(say('password must be text', 'The password must be text.'))
  @MaxLength(LIMITS.passwordMax, say('The password is wrong', 'The password is wrong.'))
  password: string;

  /** Sign-up's email rules (auth/dto/sign-up.dto.ts). */
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
