import { Injectable } from '@nestjs/common';
import type { Tag } from '@techit/contract/api-types';
import { TAG_SUGGESTIONS } from '@techit/contract/limits';
import { normaliseTag, TAG_PATTERN } from '@techit/contract/tag-rules';
import type { AuthUser } from '../auth/auth-user';
import { BadRequestError } from '../common/app-errors';
import { TransactionRunner } from '../database/transaction-runner';
import type { TagSuggestQueryDto } from './dto/tag-query.dto';
import { toTag } from './tags.mapper';
import { type TagPref, TagsRepository } from './tags.repository';

/** A prefix can be any start of a valid name: the pattern with its first character optional. */
const PREFIX_PATTERN = /^([a-z0-9][a-z0-9-]{0,29})?$/;

/** Whether a normalised text could begin a tag name ('' does: every tag). */
export function isTagPrefix(prefix: string): boolean {
  return PREFIX_PATTERN.test(prefix);
}

@Injectable()
export class TagsService {
  constructor(
    private readonly tags: TagsRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  async suggest(query: TagSuggestQueryDto, viewer: AuthUser | null): Promise<Tag[]> {
    const prefix = normaliseTag(query.prefix ?? '');
    if (!isTagPrefix(prefix))
      throw new BadRequestError('prefix must be the start of a tag: lower-case letters, digits or dashes');
    return this.byPrefix(prefix, 0, query.limit ?? TAG_SUGGESTIONS.defaultSize, viewer);
  }

  /**
   * Tags in use starting with `prefix` (normalised, isTagPrefix), most-used first, from position
   * `offset`: the autocomplete and search's type=tags, with the reader's follow/mute.
   */
  async byPrefix(prefix: string, offset: number, limit: number, viewer: AuthUser | null): Promise<Tag[]> {
    const rows = await this.tags.suggest(prefix, limit, offset);
    const prefs = viewer
      ? await this.tags.prefsOf(
          viewer.id,
          rows.map((row) => row.name),
        )
      : new Map<string, TagPref>();
    return rows.map((row) => toTag(row, prefs.get(row.name)));
  }

  /** A valid name nobody used yet is a tag with no posts (its page is just empty), not a 404. */
  async get(rawName: string, viewer: AuthUser | null): Promise<Tag> {
    const name = requireTagName(rawName);
    const row = (await this.tags.find(name)) ?? { name, posts_count: 0, followers_count: 0 };
    const prefs = viewer ? await this.tags.prefsOf(viewer.id, [name]) : new Map<string, TagPref>();
    return toTag(row, prefs.get(name));
  }

  /**
   * follow / mute / null (unfollow, unmute). Idempotent. A tag is followed or muted, never both:
   * following a muted tag unmutes it and muting a followed one unfollows it. Unfollowing a tag
   * that is muted (or unmuting a followed one) leaves it as it is.
   */
  async setPref(me: AuthUser, rawName: string, action: 'follow' | 'unfollow' | 'mute' | 'unmute'): Promise<Tag> {
    const name = requireTagName(rawName);
    return this.transactions.run(async (trx) => {
      const current = (await this.tags.prefsOf(me.id, [name], trx)).get(name) ?? null;
      const next = nextPref(current, action);
      const row = await this.tags.setPref(me.id, name, next, trx);
      return toTag(row, next ?? undefined);
    });
  }
}

function nextPref(current: TagPref | null, action: 'follow' | 'unfollow' | 'mute' | 'unmute'): TagPref | null {
  if (action === 'follow') return 'follow';
  if (action === 'mute') return 'mute';
  if (action === 'unfollow') return current === 'follow' ? null : current;
  return current === 'mute' ? null : current;
}

/** The name in a URL, normalised like a post's tag; one that could never be a tag is a 400. */
export function requireTagName(raw: string): string {
  const name = normaliseTag(raw);
  if (!TAG_PATTERN.test(name))
    throw new BadRequestError(
      `"${raw.slice(0, 40)}" is not a tag: 1 to 30 lower-case letters, digits or dashes, starting with a letter or digit`,
    );
  return name;
}
