import { ApiProperty } from '@nestjs/swagger';
import { THEMES, type Theme } from '@techit/contract/enums';
import { DEFAULT_PROFILE_PIC, LIMITS } from '@techit/contract/limits';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsPictureUrl } from '../../common/url-rules';
import { say, Trim } from '../../common/validation';

export class FollowDto {
  @ApiProperty({ description: 'The id of the user to follow' })
  @IsNotEmpty({ message: 'followId is required' })
  @IsString({ message: 'followId must be text' })
  followId: string;
}

export class UnfollowDto {
  @ApiProperty({ description: 'The id of the user to stop following' })
  @IsNotEmpty({ message: 'unfollowId is required' })
  @IsString({ message: 'unfollowId must be text' })
  unfollowId: string;
}

export class UpdatePicDto {
  @ApiProperty({
    description: `A URL from POST /api/upload, an http(s) URL, or ${DEFAULT_PROFILE_PIC} to remove the picture`,
  })
  @Trim()
  @IsNotEmpty({ message: 'pic is required' })
  @IsString({ message: 'pic must be text' })
  @IsPictureUrl({ message: 'pic must be an uploaded image URL or an http(s) URL' })
  pic: string;
}

/** An empty bio or position is allowed: it is how a user clears it. */
export class UpdateBioDto {
  @ApiProperty({ maxLength: LIMITS.bioMax })
  @Trim()
  @IsString({ message: 'bio must be text' })
  @MaxLength(
    LIMITS.bioMax,
    say(`Bio must be at most ${LIMITS.bioMax} characters`, `Your bio can have at most ${LIMITS.bioMax} characters.`),
  )
  bio: string;
}

export class UpdatePositionDto {
  @ApiProperty({ maxLength: LIMITS.positionMax })
  @Trim()
  @IsString({ message: 'position must be text' })
  @MaxLength(
    LIMITS.positionMax,
    say(
      `Position must be at most ${LIMITS.positionMax} characters`,
      `Your position can have at most ${LIMITS.positionMax} characters.`,
    ),
  )
  position: string;
}

export class UpdateThemeDto {
  @ApiProperty({ enum: THEMES })
  @IsIn(THEMES, { message: `theme must be one of: ${THEMES.join(', ')}` })
  theme: Theme;
}
