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

  /** `onMentioned` hears the ids of the existing users the text mentions (the renderer's one lookup). */
  render(source: string, kind: MarkdownKind, onMentioned?: (userIds: string[]) => void): Promise<string> {
    if (!onMentioned) return render(source, kind, this.context);
    return render(source, kind, {
      ...this.context,
      resolveMentions: async (names) => {
        const resolved = await this.context.resolveMentions(names);
        onMentioned([...new Set(resolved.values())]);
        return resolved;
      },
    });
  }

  /**
   * Renders, and tells which existing users the text mentions: the ids the renderer's one lookup
   * resolved (the same `@userName` rules as the links it draws; no second parser), each once.
   */
  async renderWithMentions(source: string, kind: MarkdownKind): Promise<{ html: string; mentionedIds: string[] }> {
    let mentionedIds: string[] = [];
    const html = await this.render(source, kind, (userIds) => (mentionedIds = userIds));
    return { html, mentionedIds };
  }
}
