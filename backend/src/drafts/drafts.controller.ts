import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Draft, DraftListReply, DraftReply } from '@techit/contract/api-types';
import type { AuthUser } from '../auth/auth-user';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiErrors } from '../common/api-errors.decorator';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { CreateDraftDto, DraftListQueryDto, UpdateDraftDto } from './dto/draft-input.dto';
import { DraftConflictResponse, DraftListResponse, DraftReplyResponse, DraftResponse } from './dto/draft.response';
import { DraftsService } from './drafts.service';

/** Someone else's draft answers 404 everywhere, as if it did not exist. */
@ApiTags('drafts')
@Controller('drafts')
export class DraftsController {
  constructor(private readonly drafts: DraftsService) {}

  @Post()
  @Authenticated()
  @RateLimit('drafts')
  @ApiOperation({
    summary: 'Start a draft of a post or a notice',
    description:
      'Every field is optional and kept as typed, up to the publish limits. With postId: the edit draft of your post (one per post).',
  })
  @ApiCreatedResponse({ type: DraftReplyResponse })
  @ApiConflictResponse({ type: DraftConflictResponse, description: 'The post already has an edit draft: it is sent' })
  @ApiErrors(400, 403, 404)
  async create(@CurrentUser() me: AuthUser, @Body() body: CreateDraftDto): Promise<DraftReply> {
    return { draft: await this.drafts.create(me, body) };
  }

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Your drafts, most recently saved first',
    description: 'Page by page or by cursor. With postId: your edit draft of that post, if any.',
  })
  @ApiOkResponse({ type: DraftListResponse })
  @ApiErrors(400)
  list(@CurrentUser() me: AuthUser, @Query() query: DraftListQueryDto): Promise<DraftListReply> {
    return this.drafts.list(me, query);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: 'One of your drafts' })
  @ApiOkResponse({ type: DraftReplyResponse })
  @ApiErrors(404)
  async get(@CurrentUser() me: AuthUser, @Param('id') id: string): Promise<DraftReply> {
    return { draft: await this.drafts.get(me, id) };
  }

  @Put(':id')
  @Authenticated()
  @RateLimit('drafts')
  @ApiOperation({
    summary: 'Save a draft: its fields are replaced by those sent',
    description:
      'version must be the stored one (the last the editor got); the reply carries the next. Otherwise 409 with the stored draft.',
  })
  @ApiOkResponse({ type: DraftReplyResponse })
  @ApiConflictResponse({ type: DraftConflictResponse, description: 'Saved elsewhere since: the stored draft is sent' })
  @ApiErrors(400, 404)
  async save(@CurrentUser() me: AuthUser, @Param('id') id: string, @Body() body: UpdateDraftDto): Promise<DraftReply> {
    return { draft: await this.drafts.save(me, id, body) };
  }

  @Delete(':id')
  @Authenticated()
  @RateLimit('drafts')
  @ApiOperation({ summary: 'Delete one of your drafts' })
  @ApiOkResponse({ type: DraftResponse, description: 'The deleted draft' })
  @ApiErrors(404)
  delete(@CurrentUser() me: AuthUser, @Param('id') id: string): Promise<Draft> {
    return this.drafts.delete(me, id);
  }
}
