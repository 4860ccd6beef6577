import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_PROFILE_PIC, LIMITS, USER_NAME_PATTERN } from '@techit/contract/limits';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { IsPictureUrl } from '../../common/url-rules';
import { Trim, TrimToUndefined } from '../../common/validation';

export class SignUpDto {
  @ApiProperty({ minLength: LIMITS.userNameMin, maxLength: LIMITS.userNameMax, pattern: USER_NAME_PATTERN.source })
  @Trim()
  @IsNotEmpty({ message: 'userName is required' })
  @IsString({ message: 'userName must be text' })
  @Length(LIMITS.userNameMin, LIMITS.userNameMax, {
    message: `userName must be ${LIMITS.userNameMin} to ${LIMITS.userNameMax} characters`,
  })
  @Matches(USER_NAME_PATTERN, { message: 'userName may only contain letters, digits, "_", "." and "-"' })
  userName: string;

  @ApiProperty({ format: 'email', maxLength: LIMITS.emailMax })
  @Trim()
  @IsNotEmpty({ message: 'email is required' })
  @IsString({ message: 'email must be text' })
  @MaxLength(LIMITS.emailMax, { message: `email must be at most ${LIMITS.emailMax} characters` })
  @IsEmail({}, { message: 'email must be a valid email address' })
  email: string;

  @ApiProperty({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax })
  @IsNotEmpty({ message: 'password is required' })
  @IsString({ message: 'password must be text' })
  // Not trimmed (spaces may be part of a passphrase), but all-blank counts as missing.
  @Matches(/\S/, { message: 'password is required' })
  @Length(LIMITS.passwordMin, LIMITS.passwordMax, {
    message: `password must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters`,
  })
  password: string;

  @ApiPropertyOptional({ description: `A URL from POST /api/upload, an http(s) URL, or ${DEFAULT_PROFILE_PIC}` })
  @TrimToUndefined()
  @IsOptional()
  @IsString({ message: 'pic must be text' })
  @IsPictureUrl({ message: 'pic must be an uploaded image URL or an http(s) URL' })
  pic?: string;
}
