import { CATEGORIES, DEFAULT_THEME, THEMES } from '@techit/contract/enums';
import { DEFAULT_PROFILE_PIC, LIMITS, USER_NAME_PATTERN } from '@techit/contract/limits';
import { isHttpUrl } from '@techit/contract/url-rules';
import { isEmail } from 'class-validator';
import { isBcryptHash } from '../auth/password-hasher';
import { parseObjectId } from '../common/object-id';
import { isPictureUrl } from '../common/url-rules';
import type {
  NewComment,
  FollowsTable,
  LikesTable,
  NoticesTable,
  PostRow,
  PostsTable,
  UsersTable,
} from '../database/database.types';
import { hotScore } from '../posts/hot-score';
import { titleKey } from '../search/search-query.parser';
import { emailKey, userNameKey } from '../users/users.repository';
import type { ExportDocument, MongoExport } from './mongo-export-reader';
import { AdjustmentReport } from './mongo-import-report';

/** Stored for an account whose export holds no usable hash: no password verifies against it. */
export const LOCKED_PASSWORD_HASH = '!locked: imported without a usable password hash';

export interface ImportRows {
  users: UsersTable[];
  follows: FollowsTable[];
  posts: PostRow[];
  likes: LikesTable[];
  comments: NewComment[];
  notices: NoticesTable[];
}

export interface ImportPlan {
  rows: ImportRows;
  report: AdjustmentReport;
}

/** An account already in the database that an imported one could collide with. */
export interface ExistingUser {
  id: string;
  user_name: string;
  email_key: string;
}

/** What to look up in the database before planning: the export's user ids and login keys. */
export function userLookupKeys(data: MongoExport): { ids: string[]; userNameKeys: string[]; emailKeys: string[] } {
  const ids = new Set<string>();
  const userNameKeys = new Set<string>();
  const emailKeys = new Set<string>();
  for (const { fields } of data.users) {
    const id = parseObjectId(fields._id);
    if (id) ids.add(id);
    if (typeof fields.userName === 'string' && fields.userName.trim())
      userNameKeys.add(userNameKey(fields.userName.trim()));
    if (typeof fields.email === 'string' && fields.email.trim()) emailKeys.add(emailKey(fields.email.trim()));
  }
  return { ids: [...ids], userNameKeys: [...userNameKeys], emailKeys: [...emailKeys] };
}

/**
 * Turns the original's documents into our rows: ids kept, embedded likes and comments unfolded,
 * followers/following made into follow rows, duplicates collapsed, references to users that are
 * not imported dropped, counters computed from the very rows. Pure and deterministic (users are
 * decided oldest id first), so the same export and database always give the same plan.
 */
export function planImport(data: MongoExport, existing: ExistingUser[]): ImportPlan {
  return new ImportPlanner(existing).plan(data);
}

interface UserCandidate {
  id: string;
  doc: ExportDocument;
  userName: string;
  email: string;
  createdAt: string;
}

class ImportPlanner {
  private readonly report = new AdjustmentReport();
  private readonly rows: ImportRows = { users: [], follows: [], posts: [], likes: [], comments: [], notices: [] };
  /** Users whose rows exist after the import (inserted now or already there), with their created_at. */
  private readonly importedUsers = new Map<string, string>();

  constructor(private readonly existing: ExistingUser[]) {}

  plan(data: MongoExport): ImportPlan {
    const candidates = this.userCandidates(data.users);
    this.users(candidates);
    this.follows(candidates);
    this.posts(data.posts);
    this.notices(data.notices);
    return { rows: this.rows, report: this.report };
  }

  private userCandidates(docs: ExportDocument[]): UserCandidate[] {
    const byId = new Map<string, UserCandidate>();
    for (const doc of docs) {
      const id = parseObjectId(doc.fields._id);
      if (!id) {
        this.report.add('userBadId', doc.source);
        continue;
      }
      if (byId.has(id)) {
        this.report.add('userDuplicateId', `${id} (${doc.source})`);
        continue;
      }
      const userName = this.text(doc.fields.userName, id);
      const email = this.text(doc.fields.email, id);
      if (!userName || !email) {
        this.report.add('userMissingLogin', id);
        continue;
      }
      if (userName.length > LIMITS.emailMax || email.length > LIMITS.emailMax) {
        this.report.add('userLoginTooLong', id);
        continue;
      }
      byId.set(id, { id, doc, userName, email, createdAt: this.date(doc.fields.createdAt, id) ?? objectIdTime(id) });
    }
    // Oldest account first: of two with the same name, the one who had it first keeps it.
    return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private users(candidates: UserCandidate[]): void {
    const inExport = new Set(candidates.map((candidate) => candidate.id));
    const inDatabase = new Set(this.existing.map((user) => user.id));
    // Who holds each login key now: the database's accounts first, then each user accepted.
    const nameOwners = new Map(this.existing.map((user) => [userNameKey(user.user_name), user.id]));
    const emailOwners = new Map(this.existing.map((user) => [user.email_key, user.id]));
    for (const candidate of candidates) {
      const { id, userName, email } = candidate;
      if (!inDatabase.has(id)) {
        const owner = nameOwners.get(userNameKey(userName)) ?? emailOwners.get(emailKey(email));
        if (owner !== undefined && owner !== id) {
          this.report.add(
            inExport.has(owner) ? 'userDuplicateInExport' : 'userClashesWithDatabase',
            `${id} (${userName})`,
          );
          continue;
        }
        nameOwners.set(userNameKey(userName), id);
        emailOwners.set(emailKey(email), id);
      }
      this.importedUsers.set(id, candidate.createdAt);
      this.rows.users.push(this.userRow(candidate));
    }
  }

  private userRow({ id, doc, userName, email, createdAt }: UserCandidate): UsersTable {
    const fields = doc.fields;
    if (
      userName.length < LIMITS.userNameMin ||
      userName.length > LIMITS.userNameMax ||
      !USER_NAME_PATTERN.test(userName)
    )
      this.report.add('userNameOutsideRules', `${id} (${userName})`);
    if (!isEmail(email)) this.report.add('emailInvalid', id);
    let passwordHash = typeof fields.password === 'string' ? fields.password : '';
    if (!isBcryptHash(passwordHash)) {
      this.report.add('passwordUnusable', `${id} (${userName})`);
      passwordHash = LOCKED_PASSWORD_HASH;
    }
    let pic = this.text(fields.pic, id);
    if (!pic) pic = DEFAULT_PROFILE_PIC;
    else if (!isPictureUrl(pic)) {
      this.report.add('picReplaced', id);
      pic = DEFAULT_PROFILE_PIC;
    }
    const rawTheme = this.text(fields.theme, id).toLowerCase();
    const theme = (THEMES as readonly string[]).includes(rawTheme) ? rawTheme : DEFAULT_THEME;
    if (rawTheme && theme !== rawTheme) this.report.add('themeReset', id);
    const position = this.text(fields.position, id);
    if (position.length > LIMITS.positionMax) this.report.add('positionOverLimit', id);
    const bio = this.text(fields.bio, id);
    if (bio.length > LIMITS.bioMax) this.report.add('bioOverLimit', id);
    return {
      id,
      user_name: userName,
      email,
      email_key: emailKey(email),
      password_hash: passwordHash,
      pic,
      position,
      bio,
      theme,
      role: 'user',
      created_at: createdAt,
      updated_at: this.date(fields.updatedAt, id) ?? createdAt,
      token_version: 0,
      suspended_until: null,
    };
  }

  /**
   * The original kept each follow twice, in the follower's `following` and the followee's
   * `followers`, and could list an id twice in either. Both lists are read and joined; only a
   * repeat within one list counts as a duplicate.
   */
  private follows(candidates: UserCandidate[]): void {
    const sides = new Map<string, { follower: string; followee: string; seen: number }>();
    const FOLLOWING = 1;
    const FOLLOWERS = 2;
    for (const { id, doc } of candidates) {
      if (!this.importedUsers.has(id)) continue;
      for (const [list, side] of [
        [doc.fields.following, FOLLOWING],
        [doc.fields.followers, FOLLOWERS],
      ] as const) {
        const listed = new Set<string>();
        for (const raw of this.list(list, id)) {
          const other = parseObjectId(raw);
          if (!other) {
            this.report.add('followBadId', id);
            continue;
          }
          if (listed.has(other)) {
            this.report.add('followDuplicate', `${id} → ${other}`);
            continue;
          }
          listed.add(other);
          if (other === id) {
            this.report.add('followSelf', id);
            continue;
          }
          if (!this.importedUsers.has(other)) {
            this.report.add('followDangling', other);
            continue;
          }
          const [follower, followee] = side === FOLLOWING ? [id, other] : [other, id];
          const key = `${follower} ${followee}`;
          const entry = sides.get(key) ?? { follower, followee, seen: 0 };
          entry.seen |= side;
          sides.set(key, entry);
        }
      }
    }
    for (const { follower, followee, seen } of sides.values()) {
      if (seen !== (FOLLOWING | FOLLOWERS)) this.report.add('followOneSided', `${follower} → ${followee}`);
      // The original kept no date for a follow; it cannot be older than either account.
      this.rows.follows.push({
        follower_id: follower,
        followee_id: followee,
        created_at: later(this.importedUsers.get(follower), this.importedUsers.get(followee)),
      });
    }
  }

  private posts(docs: ExportDocument[]): void {
    const postIds = new Set<string>();
    const commentIds = new Set<string>();
    for (const doc of docs) {
      const { fields } = doc;
      const id = parseObjectId(fields._id);
      if (!id) {
        this.report.add('postBadId', doc.source);
        continue;
      }
      if (postIds.has(id)) {
        this.report.add('postDuplicateId', `${id} (${doc.source})`);
        continue;
      }
      postIds.add(id);
      const author = reference(fields.postedBy);
      if (!author || !this.importedUsers.has(author)) {
        this.report.add('postAuthorMissing', id);
        continue;
      }
      const createdAt = this.date(fields.createdAt, id) ?? objectIdTime(id);
      const likes = this.likes(id, createdAt, fields.likes);
      const comments = this.comments(id, fields.comments, commentIds);
      this.rows.posts.push({
        ...this.postFields(id, fields),
        author_id: author,
        created_at: createdAt,
        updated_at: this.date(fields.updatedAt, id) ?? createdAt,
        // The export says when a post was saved, not whether its words changed: unedited here.
        edited_at: null,
        // The original had no article. The HTML is rendered before the rows go in (mongo-import-html.ts).
        body: '',
        desc_html: null,
        body_html: null,
        render_version: 0,
        removed_at: null,
        removed_by: null,
        likes_count: likes.length,
        comments_count: comments.length,
        commenters_count: new Set(comments.map((comment) => comment.author_id)).size,
        hot_score: hotScore({
          likes_count: likes.length,
          commenters_count: new Set(comments.map((comment) => comment.author_id)).size,
          created_at: createdAt,
        }),
      });
      this.rows.likes.push(...likes);
      this.rows.comments.push(...comments);
    }
  }

  private postFields(
    id: string,
    fields: Record<string, unknown>,
  ): Pick<PostsTable, 'id' | 'title' | 'title_key' | 'description' | 'photo' | 'category' | 'link1' | 'link2'> {
    const title = this.text(fields.title, id);
    const description = this.text(fields.desc, id);
    if (!title || !description) this.report.add('postEmptyText', id);
    if (title.length > LIMITS.postTitleMax) this.report.add('titleOverLimit', id);
    if (description.length > LIMITS.postDescMax) this.report.add('descOverLimit', id);
    let photo = this.text(fields.photo, id);
    if (photo && !isPictureUrl(photo)) {
      this.report.add('photoDropped', id);
      photo = '';
    }
    const rawCategory = this.text(fields.category, id);
    const category = CATEGORIES.find((known) => known.toLowerCase() === rawCategory.toLowerCase()) ?? '';
    if (rawCategory && !category) this.report.add('categoryDropped', id);
    return {
      id,
      title,
      title_key: titleKey(title),
      description,
      photo,
      category,
      link1: this.link(fields.link1, id) ?? '',
      link2: this.link(fields.link2, id) ?? '',
    };
  }

  private likes(postId: string, postCreatedAt: string, raw: unknown): LikesTable[] {
    const likes = new Map<string, LikesTable>();
    for (const item of this.list(raw, postId)) {
      const userId = parseObjectId(item);
      if (!userId) this.report.add('likeBadId', postId);
      else if (likes.has(userId)) this.report.add('likeDuplicate', `${postId} ← ${userId}`);
      else if (!this.importedUsers.has(userId)) this.report.add('likeDangling', userId);
      // The original kept no date for a like; it cannot be older than the post or the user.
      else
        likes.set(userId, {
          post_id: postId,
          user_id: userId,
          created_at: later(postCreatedAt, this.importedUsers.get(userId)),
        });
    }
    return [...likes.values()];
  }

  private comments(postId: string, raw: unknown, seen: Set<string>): NewComment[] {
    const comments: NewComment[] = [];
    for (const item of this.list(raw, postId)) {
      const fields = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
      const id = parseObjectId(fields._id);
      if (!id) {
        this.report.add('commentBadId', postId);
        continue;
      }
      if (seen.has(id)) {
        this.report.add('commentDuplicateId', id);
        continue;
      }
      seen.add(id);
      const author = reference(fields.postedBy);
      if (!author || !this.importedUsers.has(author)) {
        this.report.add('commentAuthorMissing', id);
        continue;
      }
      const text = this.text(fields.text, id);
      if (!text) {
        this.report.add('commentEmpty', id);
        continue;
      }
      if (text.length > LIMITS.commentMax) this.report.add('commentOverLimit', id);
      comments.push({
        id,
        post_id: postId,
        author_id: author,
        text,
        // The original's comments carry no date; their ObjectId holds the second they were made.
        created_at: this.date(fields.createdAt, id) ?? objectIdTime(id),
        text_html: null,
        render_version: 0,
      });
    }
    return comments;
  }

  private notices(docs: ExportDocument[]): void {
    const noticeIds = new Set<string>();
    for (const doc of docs) {
      const { fields } = doc;
      const id = parseObjectId(fields._id);
      if (!id) {
        this.report.add('noticeBadId', doc.source);
        continue;
      }
      if (noticeIds.has(id)) {
        this.report.add('noticeDuplicateId', `${id} (${doc.source})`);
        continue;
      }
      noticeIds.add(id);
      const author = reference(fields.postedBy);
      if (!author || !this.importedUsers.has(author)) {
        this.report.add('noticeAuthorMissing', id);
        continue;
      }
      const description = this.text(fields.desc, id);
      if (!description) this.report.add('noticeEmptyText', id);
      if (description.length > LIMITS.noticeDescMax) this.report.add('noticeDescOverLimit', id);
      const links = this.list(fields.links, id).flatMap((raw) => this.link(raw, id) ?? []);
      if (links.length > LIMITS.noticeLinksMax) this.report.add('noticeLinksOverLimit', id);
      const tags = this.list(fields.tags, id).flatMap((raw) => this.text(raw, id) || []);
      if (tags.length > LIMITS.noticeTagsMax || tags.some((tag) => tag.length > LIMITS.noticeTagMax))
        this.report.add('noticeTagsOverLimit', id);
      const likes = this.list(fields.likes, id).length;
      if (likes > 0) this.report.add('noticeLikesDropped', id, likes);
      const comments = this.list(fields.comments, id).length;
      if (comments > 0) this.report.add('noticeCommentsDropped', id, comments);
      this.rows.notices.push({
        id,
        author_id: author,
        description,
        links: JSON.stringify(links),
        tags: JSON.stringify(tags),
        // The original's notices have no date at all: the ObjectId's second is the only one.
        created_at: this.date(fields.createdAt, id) ?? objectIdTime(id),
        desc_html: null,
        render_version: 0,
        removed_at: null,
        removed_by: null,
      });
    }
  }

  /**
   * A link as our API would store it: an http(s) URL. The original took free text, so a bare
   * "github.com/ada" gets https:// in front; anything else that is not http(s) (a `javascript:`
   * link) is removed. null: no link.
   */
  private link(raw: unknown, id: string): string | null {
    const value = this.text(raw, id);
    if (!value) return null;
    if (isLink(value)) return value;
    const prefixed = `https://${value}`;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(value) && isLink(prefixed) && new URL(prefixed).hostname.includes('.')) {
      this.report.add('linkPrefixed', id);
      return prefixed;
    }
    this.report.add('linkDropped', id);
    return null;
  }

  /** Trimmed text; a number or boolean as its text; anything else (an object, a list) reported and empty. */
  private text(value: unknown, id: string): string {
    if (typeof value === 'string') return value.trim();
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (value !== undefined && value !== null) this.report.add('notText', id);
    return '';
  }

  private list(value: unknown, id: string): unknown[] {
    if (Array.isArray(value)) return value;
    if (value !== undefined && value !== null) this.report.add('notList', id);
    return [];
  }

  /** ISO 8601 text as our tables keep it, or null when absent or unreadable (reported). */
  private date(value: unknown, id: string): string | null {
    if (value === undefined || value === null || value === '') return null;
    const date =
      value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : null;
    // Years outside 1970-9999 would not sort as text beside the others (and are not real dates here).
    const time = date?.getTime() ?? Number.NaN;
    if (Number.isNaN(time) || time < 0 || time >= Date.UTC(10000, 0, 1)) {
      this.report.add('dateUnreadable', id);
      return null;
    }
    return new Date(time).toISOString();
  }
}

/** isHttpUrl without its type guard, which would narrow a string that fails it to `never`. */
function isLink(value: string): boolean {
  return isHttpUrl(value);
}

/** An id, or a populated `{ _id }` as a mongoose document can hold. */
function reference(value: unknown): string | null {
  if (value !== null && typeof value === 'object' && '_id' in value) return parseObjectId(value._id);
  return parseObjectId(value);
}

/** The second an ObjectId was made, from its first four bytes. */
export function objectIdTime(id: string): string {
  return new Date(Number.parseInt(id.slice(0, 8), 16) * 1000).toISOString();
}

function later(a: string | undefined, b: string | undefined): string {
  const [first = '', second = ''] = [a, b];
  return first > second ? first : second;
}
