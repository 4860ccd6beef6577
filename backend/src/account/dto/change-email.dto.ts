import { ApiProperty } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsAccountEmail } from '../../auth/dto/account-field-rules';
import { say } from '../../common/validation';

export class ChangeEmailDto {
  @ApiProperty({ description: 'The password the account has now' })
  @IsNotEmpty(say('password is required', 'Enter your password.'))
  @IsString(say('password must be text', 'The password must be text.'))
  @MaxLength(LIMITS.passwordMax, say('The password is wrong', 'The password is wrong.'))
  password: string;

  @IsAccountEmail()
  email: string;
}
