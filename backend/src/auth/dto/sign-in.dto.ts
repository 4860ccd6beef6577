import { ApiProperty } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { say, Trim } from '../../common/validation';

export class SignInDto {
  @ApiProperty({ description: 'The userName, or the email address' })
  @Trim()
  @IsNotEmpty(say('userName is required', 'Enter your user name or email address.'))
  @IsString(say('userName must be text', 'The user name must be text.'))
  @MaxLength(LIMITS.emailMax, { message: 'Invalid username or password' })
  userName: string;

  @ApiProperty()
  @IsNotEmpty(say('password is required', 'Enter your password.'))
  @IsString(say('password must be text', 'The password must be text.'))
  @MaxLength(LIMITS.passwordMax, { message: 'Invalid username or password' })
  password: string;
}
