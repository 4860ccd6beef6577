import { ApiProperty } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsNewPassword } from '../../auth/dto/account-field-rules';
import { say } from '../../common/validation';

export class ChangePasswordDto {
  @ApiProperty({ description: 'The password the account has now' })
  @IsNotEmpty(say('current is required', 'Enter your current password.'))
  @IsString(say('current must be text', 'The password must be text.'))
  @MaxLength(LIMITS.passwordMax, say('The current password is wrong', 'The current password is wrong.'))
  current: string;

  @IsNewPassword('next', 'Choose a new password.')
  next: string;
}
