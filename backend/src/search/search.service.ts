import { Inject, Injectable } from '@nestjs/common';
import type { RawBuilder } from 'kysely';
import type { SearchReply, SearchType } from '@techit/contract/api-types';
import { SEARCH } from '@techit/contract/limits';
import { normaliseTag } from '@techit/contract/tag-rules';
import type { AuthUser } from '../auth/auth-user';
import { BadRequestError } from '../common/app-errors';
import {
  POST_SEARCH_REPOSITORY,
  type PostHitRow,
  type PostSearchRepository,
  positives,
} from './post-search.repository';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor';
import {
  exactTitleKey,
  formatSearchQuery,
  parseSearchQuery,
  type SearchQuery,
  SearchQueryError,
} from './search-query.parser';
import { foldWord, type SnippetWords } from './search-snippet';
import { TagsRepository } from '../tags/tags.repository';
import { isTagPrefix, TagsService } from '../tags/tags.service';
import { SearchRepository } from './search.repository';
import { toNoticeResult, toPostResult, toUserResult } from './search.mapper';
import { closestWord } from './typo';
import type { SearchQueryDto } from './dto/search-query.dto';

/** Posts with the query as their exact title put first (more are ranked with the rest): the shortest titles, then the newest. */
const EXACT_TITLES = 20;

/** Search rules: the query language, exact title first, the typo step, paging (decision 034). */
@Injectable()
export class SearchService {
  constructor(
    @Inject(POST_SEARCH_REPOSITORY) private readonly posts: PostSearchRepository,
    private readonly repository: SearchRepository,
    private readonly tags: TagsRepository,
    private readonly tagsService: TagsService,
  ) {}

  /** `viewer`: a signed-in reader, whose muted tags' posts are left out (decision 032). */
  async search(input: SearchQueryDto, viewer: AuthUser | null): Promise<SearchReply> {
    const mutedBy = viewer?.id;
    const type: SearchType = input.type ?? 'posts';
    const limit = input.limit ?? SEARCH.defaultLimit;
    const offset = input.cursor === undefined ? 0 : decodeSearchCursor(input.cursor);
    if (type === 'tags') return this.tagPage(input.q, offset, limit, viewer);
    const query = parsed(input.q);
    if (query.tags.length > 0 && type !== 'posts') {
      throw new BadRequestError('tag:name narrows posts only; search posts to use it');
    }
    const take = Math.min(limit, SEARCH.depthMax - offset);
    if (type === 'posts') {
      const found = await this.postPage(query, offset, take, mutedBy);
      if (found.rows.length > 0 || offset > 0) return await this.postReply(query, found, offset, take);
      const corrected = await this.corrected(query);
      if (!corrected) return await this.postReply(query, found, offset, take);
      const retried = await this.postPage(corrected, offset, take, mutedBy);
      if (retried.rows.length === 0) return await this.postReply(query, found, offset, take);
      return {
        ...(await this.postReply(corrected, retried, offset, take)),
        correctedQuery: formatSearchQuery(corrected),
      };
    }
    if (type === 'notices') {
      const rows = await this.repository.notices(query, offset, take + 1, mutedBy);
      const words = matchedWords(query);
      return page(
        rows.map((row) => toNoticeResult(row, words)),
        offset,
        take,
      );
    }
    const rows = await this.repository.users(query, offset, take + 1);
    return page(rows.map(toUserResult), offset, take);
  }

  /**
   * `q` as a condition on the row `posts` of a list of the reader's own (their bookmarks, decision
   * 043): the same query language, refusals and index as a search, without its ranking (the list
   * keeps its own order) or the typo step.
   */
  postsMatching(q: string): RawBuilder<unknown> {
    return this.posts.matching(parsed(q));
  }

  /**
   * type=tags: tags in use whose name starts with q, normalised as a tag is (case and a leading
   * `#` dropped), most-used first, as Tag (the reader's following/muted with a token).
   */
  private async tagPage(q: string, offset: number, limit: number, viewer: AuthUser | null): Promise<SearchReply> {
    const prefix = normaliseTag(q);
    if (prefix === '') throw new BadRequestError('Type the start of a tag to search for');
    if (!isTagPrefix(prefix)) {
      throw new BadRequestError('Tags are found by the start of one name: lower-case letters, digits or dashes');
    }
    const take = Math.min(limit, SEARCH.depthMax - offset);
    return page(await this.tagsService.byPrefix(prefix, offset, take + 1, viewer), offset, take);
  }

  /** The page's posts as results, each with its tags (one read for the page, as the feeds do). */
  private async postReply(
    query: SearchQuery,
    found: { rows: PostHitRow[] },
    offset: number,
    take: number,
  ): Promise<SearchReply> {
    const words = matchedWords(query);
    const tagsByPost = await this.tags.tagsOfPosts(found.rows.slice(0, take).map((row) => row.id));
    return page(
      found.rows.map((row) => toPostResult(row, words, tagsByPost.get(row.id) ?? [])),
      offset,
      take,
    );
  }

  /**
   * One page of posts, a row more than asked when there is a next one. Posts whose title is the
   * query exactly (case and punctuation aside) come first on every database, then the engine's
   * weighted rank, then the newest; the exact ones are left out of the ranked list so no post
   * shows twice, and the positions of both lists add up across pages.
   */
  private async postPage(
    query: SearchQuery,
    offset: number,
    take: number,
    mutedBy: string | undefined,
  ): Promise<{ rows: PostHitRow[] }> {
    const exact = exactTitleKey(query) ? await this.posts.exactTitles(query, EXACT_TITLES, mutedBy) : [];
    const exactRows = exact.slice(offset, offset + take + 1);
    const need = take + 1 - exactRows.length;
    const ranked =
      need > 0
        ? await this.posts.ranked(
            query,
            exact.map((row) => row.id),
            Math.max(0, offset - exact.length),
            need,
            mutedBy,
          )
        : [];
    return { rows: [...exactRows, ...ranked] };
  }

  /**
   * The query with each unknown word of 5+ letters replaced by the known word one edit away that
   * most posts hold (its first letter taken as typed); null when no word changed.
   */
  private async corrected(query: SearchQuery): Promise<SearchQuery | null> {
    let changed = false;
    const terms = [];
    for (const term of query.terms) {
      const word = term.tokens[0];
      if (term.negated || term.tokens.length !== 1 || !word || [...word].length < SEARCH.typoMinLength) {
        terms.push(term);
        continue;
      }
      const known = await this.posts.knownWords(
        String.fromCodePoint(word.codePointAt(0) ?? 0),
        word.length - 1,
        word.length + 1,
      );
      if (known.some((candidate) => candidate.term === word)) {
        terms.push(term);
        continue;
      }
      const closest = closestWord(word, known);
      if (closest) changed = true;
      terms.push(closest ? { ...term, tokens: [closest] } : term);
    }
    return changed ? { ...query, terms } : null;
  }
}

/** The query, or the 400 a search answers: unreadable, or nothing to search for. */
function parsed(q: string): SearchQuery {
  let query: SearchQuery;
  try {
    query = parseSearchQuery(q);
  } catch (error) {
    if (error instanceof SearchQueryError) throw new BadRequestError(error.message);
    throw error;
  }
  if (positives(query).length === 0 && !query.author && query.tags.length === 0) {
    throw new BadRequestError('Type a word to search for');
  }
  return query;
}

function matchedWords(query: SearchQuery): SnippetWords {
  const wanted = positives(query);
  return {
    words: new Set(wanted.filter((term) => !term.prefix).flatMap((term) => term.tokens.map(foldWord))),
    prefixes: wanted.filter((term) => term.prefix).flatMap((term) => term.tokens.map(foldWord)),
  };
}

function page<T extends SearchReply['results'][number]>(rows: T[], offset: number, take: number): SearchReply<T> {
  const more = rows.length > take && offset + take < SEARCH.depthMax;
  return { results: rows.slice(0, take), nextCursor: more ? encodeSearchCursor(offset + take) : null };
}
