import { ApiProperty } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { IsNotEmpty, IsString, Length, MaxLength } from 'class-validator';
import { IsNotBlank, say } from '../../common/validation';

export class ChangePasswordDto {
  @ApiProperty({ description: 'The password the account has now' })
  @IsNotEmpty(say('current is required', 'Enter your current password.'))
  @IsString(say('current must be text', 'The password must be text.'))
  @MaxLength(LIMITS.passwordMax, say('The current password is wrong', 'The current password is wrong.'))
  current: string;

  /** Sign-up's password rules (auth/dto/sign-up.dto.ts). */
  @ApiProperty({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax })
  @IsNotEmpty(say('next is required', 'Choose a new password.'))
  @IsString(say('next must be text', 'The password must be text.'))
  @IsNotBlank(say('next is required', 'Choose a new password.'))
  @Length(
    LIMITS.passwordMin,
    LIMITS.passwordMax,
    say(
      `next must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters`,
      `The password needs ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`,
    ),
  )
  next: string;
}
