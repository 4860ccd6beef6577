import { Body, Controller, Get, Param, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Me, UserReply, UserSuggestionsReply } from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Authenticated } from '../auth/authenticated.decorator';
import { OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import {
  FollowDto,
  UnfollowDto,
  UpdateBioDto,
  UpdatePicDto,
  UpdatePositionDto,
  UpdateThemeDto,
} from './dto/profile-update.dto';
import { MeResponse, UserReplyResponse, UserSuggestionsResponse } from './dto/user.response';
import { UserSuggestQueryDto } from './dto/user-suggest-query.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller()
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('user/:id')
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'A public profile',
    description:
      "With a token, on another user's profile, viewer says whether the reader blocks and mutes them (for the web app's Block and Mute controls); absent otherwise.",
  })
  @ApiOkResponse({ type: UserReplyResponse })
  @ApiErrors(404)
  profile(@Param('id') id: string, @CurrentUser() reader: AuthUser | null): Promise<UserReply> {
    return this.users.getProfileReply(id, reader);
  }

  @Get('users/suggest')
  @ApiOperation({ summary: '@-mention suggestions: users whose userName starts with prefix (2+ characters, any case)' })
  @ApiOkResponse({ type: UserSuggestionsResponse })
  @ApiErrors(400)
  suggest(@Query() query: UserSuggestQueryDto): Promise<UserSuggestionsReply> {
    return this.users.suggest(query.prefix, query.limit);
  }

  @Put('follow')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Follow a user (following twice changes nothing)' })
  @ApiOkResponse({ type: MeResponse, description: 'The caller, updated' })
  @ApiErrors(400, 404)
  follow(@CurrentUser() me: AuthUser, @Body() body: FollowDto): Promise<Me> {
    return this.users.follow(me.id, body.followId);
  }

  @Put('unfollow')
  @Authenticated()
  @RateLimit('likeFollow')
  @ApiOperation({ summary: 'Stop following a user' })
  @ApiOkResponse({ type: MeResponse })
  @ApiErrors(400, 404)
  unfollow(@CurrentUser() me: AuthUser, @Body() body: UnfollowDto): Promise<Me> {
    return this.users.unfollow(me.id, body.unfollowId);
  }

  @Put('updatepic')
  @Authenticated()
  @ApiOperation({ summary: 'Change (or, with the default picture, remove) the profile picture' })
  @ApiOkResponse({ type: MeResponse })
  @ApiErrors(400)
  updatePic(@CurrentUser() me: AuthUser, @Body() body: UpdatePicDto): Promise<Me> {
    return this.users.updatePicture(me.id, body.pic);
  }

  @Put('bio')
  @Authenticated()
  @ApiOperation({ summary: 'Change the bio' })
  @ApiOkResponse({ type: MeResponse })
  @ApiErrors(400)
  updateBio(@CurrentUser() me: AuthUser, @Body() body: UpdateBioDto): Promise<Me> {
    return this.users.updateBio(me.id, body.bio);
  }

  @Put('position')
  @Authenticated()
  @ApiOperation({ summary: 'Change the position (job title)' })
  @ApiOkResponse({ type: MeResponse })
  @ApiErrors(400)
  updatePosition(@CurrentUser() me: AuthUser, @Body() body: UpdatePositionDto): Promise<Me> {
    return this.users.updatePosition(me.id, body.position);
  }

  @Put('updatetheme')
  @Authenticated()
  @ApiOperation({ summary: 'Save the light or dark theme' })
  @ApiOkResponse({ type: MeResponse })
  @ApiErrors(400)
  updateTheme(@CurrentUser() me: AuthUser, @Body() body: UpdateThemeDto): Promise<Me> {
    return this.users.updateTheme(me.id, body.theme);
  }
}
