import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_PROFILE_PIC, LIMITS, USER_NAME_PATTERN } from '@techit/contract/limits';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { IsPictureUrl } from '../../common/url-rules';
import { IsNotBlank, say, Trim, TrimToUndefined } from '../../common/validation';

export class SignUpDto {
  @ApiProperty({ minLength: LIMITS.userNameMin, maxLength: LIMITS.userNameMax, pattern: USER_NAME_PATTERN.source })
  @Trim()
  @IsNotEmpty(say('userName is required', 'Choose a user name.'))
  @IsString(say('userName must be text', 'The user name must be text.'))
  @Length(
    LIMITS.userNameMin,
    LIMITS.userNameMax,
    say(
      `userName must be ${LIMITS.userNameMin} to ${LIMITS.userNameMax} characters`,
      `The user name needs ${LIMITS.userNameMin} to ${LIMITS.userNameMax} characters.`,
    ),
  )
  @Matches(
    USER_NAME_PATTERN,
    say(
      'userName may only contain letters, digits, "_", "." and "-"',
      'A user name may only use letters, digits, "_", "." and "-".',
    ),
  )
  userName: string;

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

  @ApiProperty({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax })
  @IsNotEmpty(say('password is required', 'Choose a password.'))
  @IsString(say('password must be text', 'The password must be text.'))
  // Not trimmed (spaces may be part of a passphrase), but all-blank counts as missing.
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

  @ApiPropertyOptional({ description: `A URL from POST /api/upload, an http(s) URL, or ${DEFAULT_PROFILE_PIC}` })
  @TrimToUndefined()
  @IsOptional()
  @IsString(say('pic must be text', 'The picture must be an uploaded image or a web address.'))
  @IsPictureUrl(
    say(
      'pic must be an uploaded image URL or an http(s) URL',
      'The picture must be an uploaded image or a web address.',
    ),
  )
  pic?: string;
}
