import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_PROFILE_PIC, LIMITS, USER_NAME_PATTERN } from '@techit/contract/limits';
import { IsNotEmpty, IsOptional, IsString, Length, Matches } from 'class-validator';
import { IsPictureUrl } from '../../common/url-rules';
import { say, Trim, TrimToUndefined } from '../../common/validation';
import { IsAccountEmail, IsNewPassword } from './account-field-rules';

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

  @IsAccountEmail()
  email: string;

  @IsNewPassword()
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
