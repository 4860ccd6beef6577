import { ApiProperty } from '@nestjs/swagger';
import { ACCOUNT_CONTENT_CHOICES, type AccountContentChoice } from '@techit/contract/api-types';
import { LIMITS } from '@techit/contract/limits';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { say } from '../../common/validation';

export class DeleteAccountDto {
  @ApiProperty({ description: 'The password the account has now' })
  @IsNotEmpty(say('password is required', 'Enter your password.'))
  @IsString(say('password must be text', 'The password must be text.'))
  @MaxLength(LIMITS.passwordMax, say('The password is wrong', 'The password is wrong.'))
  password: string;

  @ApiProperty({
    enum: ACCOUNT_CONTENT_CHOICES,
    description: 'delete: the posts, notices and comments go; anonymise: they stay, shown as by "[deleted user]"',
  })
  @IsNotEmpty(say('content is required', 'Choose what happens to your posts and comments.'))
  @IsIn(
    ACCOUNT_CONTENT_CHOICES,
    say(
      'content must be "delete" or "anonymise"',
      'Choose to delete your posts and comments or to keep them anonymised.',
    ),
  )
  content: AccountContentChoice;
}
