import { Injectable } from '@nestjs/common';
import type { Notice } from '@techit/contract/api-types';
import { PAGINATION } from '@techit/contract/limits';
import type { AuthUser } from '../auth/auth-user';
import { BlockRules } from '../blocks/block-rules';
import { ForbiddenError, NotFoundError } from '../common/app-errors';
import { toPage, withLookahead } from '../common/cursor';
import type { PageQueryDto } from '../common/dto/page-query.dto';
import { newObjectId, parseObjectId } from '../common/object-id';
import { toPageRequest } from '../common/page-request';
import { DraftsService } from '../drafts/drafts.service';
import { RENDERER_VERSION } from '../markdown/markdown-renderer';
import { MarkdownService } from '../markdown/markdown.service';
import { TransactionRunner } from '../database/transaction-runner';
import { NotificationsService } from '../notifications/notifications.service';
import { UsersService } from '../users/users.service';
import type { CreateNoticeDto } from './dto/create-notice.dto';
import { toNotice } from './notices.mapper';
import { NoticesRepository, type NoticeWithAuthor } from './notices.repository';

export interface NoticePage {
  notices: Notice[];
  nextCursor: string | null;
}

@Injectable()
export class NoticesService {
  constructor(
    private readonly notices: NoticesRepository,
    private readonly users: UsersService,
    private readonly drafts: DraftsService,
    private readonly markdown: MarkdownService,
    private readonly transactions: TransactionRunner,
    private readonly notifications: NotificationsService,
    private readonly blockRules: BlockRules,
  ) {}

  /** Every notice but those of the users the reader mutes (docs/decisions/048-blocks-and-mutes.md). */
  all(query: PageQueryDto, viewer: AuthUser | null = null): Promise<NoticePage> {
    return this.page(null, query, viewer, viewer?.id);
  }

  async byUser(rawUserId: string, query: PageQueryDto, viewer: AuthUser | null = null): Promise<NoticePage> {
    return this.page(await this.users.requireExisting(rawUserId), query, viewer);
  }

  async create(me: AuthUser, input: CreateNoticeDto): Promise<Notice> {
    // Rendered once, here: reading a notice never renders (docs/decisions/028-stored-html.md).
    const { html: descHtml, mentionedIds } = await this.markdown.renderWithMentions(input.desc, 'notice');
    const now = new Date();
    const id = newObjectId(now);
    // The notice and its mentions' notifications in one transaction (docs/decisions/039-notifications.md).
    const notified = await this.transactions.run(async (trx) => {
      // Nobody who blocks the author may be mentioned (docs/decisions/048-blocks-and-mutes.md).
      await this.blockRules.refuseBlocked(me.id, { mentioned: mentionedIds }, trx);
      await this.notices.insert(
        {
          id,
          author_id: me.id,
          description: input.desc,
          desc_html: descHtml,
          render_version: RENDERER_VERSION,
          links: JSON.stringify(input.links ?? []),
          tags: JSON.stringify(input.tags ?? []),
          created_at: now.toISOString(),
        },
        trx,
      );
      return this.notifications.mentionedInNotice(trx, {
        noticeId: id,
        actorId: me.id,
        mentionedIds,
        at: now.toISOString(),
      });
    });
    await this.notifications.signal(notified);
    // Right after the notice is stored: a failed create keeps the draft.
    await this.drafts.discardPublished(me, input.draftId);
    return toNotice(await this.require(id), me);
  }

  async delete(me: AuthUser, rawId: string): Promise<Notice> {
    const row = await this.require(rawId);
    if (row.author_id !== me.id && me.role !== 'admin') {
      throw new ForbiddenError('Only the author or an admin can delete this notice');
    }
    await this.notices.delete(row.id);
    return toNotice(row, me);
  }

  private async page(
    authorId: string | null,
    query: PageQueryDto,
    viewer: AuthUser | null,
    mutedBy?: string,
  ): Promise<NoticePage> {
    const request = toPageRequest(query, PAGINATION.listPageSize);
    const { rows, nextCursor } = toPage(
      await this.notices.list(authorId, withLookahead(request), mutedBy),
      request.limit,
    );
    return { notices: rows.map((row) => toNotice(row, viewer)), nextCursor };
  }

  private async require(rawId: string): Promise<NoticeWithAuthor> {
    const id = parseObjectId(rawId);
    const row = id ? await this.notices.findById(id) : undefined;
    if (!row) throw new NotFoundError("This notice doesn't exist");
    return row;
  }
}
