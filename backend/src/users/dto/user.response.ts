import { ApiProperty } from '@nestjs/swagger';
import type {
  Author,
  Me,
  ProfileUser,
  ProfileViewer,
  UserReply,
  UserSuggestionsReply,
} from '@techit/contract/api-types';
import { ROLES, type Role, THEMES, type Theme } from '@techit/contract/enums';

const ID = { example: '6743a1f2c0ffee0123456789', description: '24 hex characters (MongoDB ObjectId format)' };

export class AuthorResponse implements Author {
  @ApiProperty(ID) _id: string;
  @ApiProperty() userName: string;
  @ApiProperty({ description: 'Picture URL' }) pic: string;
}

export class ProfileUserResponse implements ProfileUser {
  @ApiProperty(ID) _id: string;
  @ApiProperty() userName: string;
  @ApiProperty() pic: string;
  @ApiProperty() position: string;
  @ApiProperty() bio: string;
  @ApiProperty({ type: [String], description: 'Ids of the users who follow this user' }) followers: string[];
  @ApiProperty({ type: [String], description: 'Ids of the users this user follows' }) following: string[];
  @ApiProperty({ enum: ROLES }) role: Role;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class MeResponse extends ProfileUserResponse implements Me {
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ enum: THEMES }) theme: Theme;
}

export class ProfileViewerResponse implements ProfileViewer {
  @ApiProperty({ description: 'The reader blocks this user' }) blocks: boolean;
  @ApiProperty({ description: 'The reader mutes this user' }) mutes: boolean;
}

export class UserReplyResponse implements UserReply {
  @ApiProperty({ type: ProfileUserResponse }) user: ProfileUserResponse;
  @ApiProperty({
    type: ProfileViewerResponse,
    required: false,
    description: "Only with a token, on another user's profile: the reader's own block and mute of them",
  })
  viewer?: ProfileViewerResponse;
}

export class UserSuggestionsResponse implements UserSuggestionsReply {
  @ApiProperty({ type: [AuthorResponse], description: 'In userName order' }) users: AuthorResponse[];
}
