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
}
