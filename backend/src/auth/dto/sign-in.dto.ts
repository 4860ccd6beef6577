import { ApiProperty } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Trim } from '../../common/validation';

export class SignInDto {
  @ApiProperty({ description: 'The userName, or the email address' })
  @Trim()
  @IsNotEmpty({ message: 'userName is required' })
  @IsString({ message: 'userName must be text' })
  @MaxLength(LIMITS.emailMax, { message: 'Invalid username or password' })
  userName: string;

  @ApiProperty()
  @IsNotEmpty({ message: 'password is required' })
  @IsString({ message: 'password must be text' })
  @MaxLength(LIMITS.passwordMax, { message: 'Invalid username or password' })
  password: string;
}
