import { Inject, Injectable } from '@nestjs/common';
import type { MarkdownKind } from '@techit/contract/enums';
import { IMAGE_STORAGE, type ImageStorage } from '../uploads/image-storage';
import { UsersRepository } from '../users/users.repository';
import { render, type RenderContext } from './markdown-renderer';

/** Renders Markdown with what the pure renderer cannot know: who exists, and which images are ours. */
@Injectable()
export class MarkdownService {
  private readonly context: RenderContext;

  constructor(users: UsersRepository, @Inject(IMAGE_STORAGE) storage: ImageStorage) {
    this.context = {
      resolveMentions: (names) => users.idsByUserNames(names),
      isOwnImage: (url) => storage.owns(url),
    };
  }

  render(source: string, kind: MarkdownKind): Promise<string> {
    return render(source, kind, this.context);
  }

  /**
   * Renders, and tells which existing users the text mentions: the ids the renderer's one lookup
   * resolved (the same `@userName` rules as the links it draws; no second parser), each once.
   */
  async renderWithMentions(source: string, kind: MarkdownKind): Promise<{ html: string; mentionedIds: string[] }> {
    let resolved: ReadonlyMap<string, string> = new Map();
    const html = await render(source, kind, {
      ...this.context,
      resolveMentions: async (names) => (resolved = await this.context.resolveMentions(names)),
    });
    return { html, mentionedIds: [...new Set(resolved.values())] };
  }

  /** The users a text mentions (an edit notifies only the new ones: those not in the old text). */
  async mentionedIds(source: string, kind: MarkdownKind): Promise<string[]> {
    return source === '' ? [] : (await this.renderWithMentions(source, kind)).mentionedIds;
  }
}
