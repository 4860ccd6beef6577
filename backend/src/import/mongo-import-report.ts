import { LIMITS } from '@techit/contract/limits';

/**
 * Everything the importer changed or left out, by kind. The original app validated little on its
 * server, so an export can hold what our API would refuse; the rule is to keep a person's data
 * whenever it is safe to show, to drop only what is unusable or unsafe, and to count every case
 * (docs/deployment.md, "Moving from the original TechIt").
 */
export const ADJUSTMENTS = {
  userBadId: 'users skipped: _id is not an ObjectId',
  userDuplicateId: 'users skipped: the same _id twice in the export (the first is kept)',
  userMissingLogin: 'users skipped: no userName or no email',
  userLoginTooLong: `users skipped: userName or email longer than ${LIMITS.emailMax} characters (sign-in could never match it)`,
  userDuplicateInExport: 'users skipped: userName or email (ignoring case) already used by an older user in the export',
  userClashesWithDatabase: 'users skipped: userName or email already used by another account in this database',
  userNameOutsideRules: `userNames outside the sign-up rules (${LIMITS.userNameMin}-${LIMITS.userNameMax} letters, digits, "_", "." or "-"): kept as they are`,
  emailInvalid: 'emails that are not valid addresses: kept as they are',
  passwordUnusable: 'passwords that are not a bcrypt hash of cost 4-14: account kept but locked (it cannot sign in)',
  picReplaced: 'profile pictures that are not http(s) image URLs: replaced by the default picture',
  themeReset: 'themes other than light or dark: set to light',
  positionOverLimit: `positions longer than ${LIMITS.positionMax} characters: kept whole`,
  bioOverLimit: `bios longer than ${LIMITS.bioMax} characters: kept whole`,
  followBadId: 'follows skipped: the id is not an ObjectId',
  followSelf: 'self-follows skipped',
  followDangling: 'follows skipped: the other user was not imported',
  followDuplicate: 'duplicate follows collapsed (the same id twice in followers or following)',
  followOneSided: 'follows listed on one side only (in following but not the other user’s followers, or back): kept',
  postBadId: 'posts skipped: _id is not an ObjectId',
  postDuplicateId: 'posts skipped: the same _id twice in the export (the first is kept)',
  postAuthorMissing: 'posts skipped: postedBy is not an imported user (their likes and comments go with them)',
  postEmptyText: 'posts with an empty title or description: kept',
  titleOverLimit: `post titles longer than ${LIMITS.postTitleMax} characters: kept whole`,
  descOverLimit: `post descriptions longer than ${LIMITS.postDescMax} characters: kept whole`,
  photoDropped: 'post photos that are not http(s) image URLs: removed',
  categoryDropped: 'categories other than Doubt or Informative: removed',
  linkPrefixed: 'links written without http(s):// (e.g. "github.com/…"): https:// added',
  linkDropped: 'links that are not http(s) URLs: removed',
  likeBadId: 'likes skipped: the user id is not an ObjectId',
  likeDangling: 'likes skipped: the user was not imported',
  likeDuplicate: 'duplicate likes collapsed (the same user twice in a post’s likes)',
  commentBadId: 'comments skipped: _id is not an ObjectId',
  commentDuplicateId: 'comments skipped: the same _id twice in the export (the first is kept)',
  commentAuthorMissing: 'comments skipped: postedBy is not an imported user',
  commentEmpty: 'comments skipped: no text',
  commentOverLimit: `comments longer than ${LIMITS.commentMax} characters: kept whole`,
  noticeBadId: 'notices skipped: _id is not an ObjectId',
  noticeDuplicateId: 'notices skipped: the same _id twice in the export (the first is kept)',
  noticeAuthorMissing: 'notices skipped: postedBy is not an imported user',
  noticeEmptyText: 'notices with an empty description: kept',
  noticeDescOverLimit: `notice descriptions longer than ${LIMITS.noticeDescMax} characters: kept whole`,
  noticeLinksOverLimit: `notices with more than ${LIMITS.noticeLinksMax} links: all kept`,
  noticeTagsOverLimit: `notices with more than ${LIMITS.noticeTagsMax} tags or a tag over ${LIMITS.noticeTagMax} characters: kept`,
  noticeLikesDropped: 'likes of notices dropped (notices have no likes here)',
  noticeCommentsDropped: 'comments on notices dropped (notices have no comments here)',
  dateUnreadable: 'dates that could not be read: the time in the ObjectId used instead',
  notText: 'fields holding something other than text: left empty',
  notList: 'fields holding something other than a list: read as an empty list',
} as const;

export type AdjustmentKind = keyof typeof ADJUSTMENTS;

export interface Adjustment {
  kind: AdjustmentKind;
  description: string;
  count: number;
  /** The first few ids (or file lines) it happened to, for an operator to look up. */
  examples: string[];
}

const MAX_EXAMPLES = 3;

export class AdjustmentReport {
  private readonly byKind = new Map<AdjustmentKind, Adjustment>();

  add(kind: AdjustmentKind, example: string, count = 1): void {
    let entry = this.byKind.get(kind);
    if (!entry) {
      entry = { kind, description: ADJUSTMENTS[kind], count: 0, examples: [] };
      this.byKind.set(kind, entry);
    }
    entry.count += count;
    if (entry.examples.length < MAX_EXAMPLES && !entry.examples.includes(example)) entry.examples.push(example);
  }

  count(kind: AdjustmentKind): number {
    return this.byKind.get(kind)?.count ?? 0;
  }

  /** In catalogue order, so two runs print the same lines in the same order. */
  list(): Adjustment[] {
    return (Object.keys(ADJUSTMENTS) as AdjustmentKind[]).flatMap((kind) => {
      const entry = this.byKind.get(kind);
      return entry ? [entry] : [];
    });
  }
}
