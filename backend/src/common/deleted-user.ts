import { type Author, DELETED_USER_AUTHOR } from '@techit/contract/api-types';

/**
 * The one account row that holds what deleted accounts left behind (docs/decisions/049): posts,
 * notices and comments of an account deleted with `content: "anonymise"`, and the "[deleted]"
 * comment placeholders of any deleted account (their replies must stay). Nobody can sign in as it
 * (its password hash is empty) and its id never leaves the server: replies show
 * DELETED_USER_AUTHOR instead. Created by the first account deletion that needs it.
 */
export const DELETED_USER_ID = '000000000000000000000000';

/** The author as replies show it: the deleted-user stand-in for rows the placeholder account holds. */
export function shownAuthor(author: Author): Author {
  return author._id === DELETED_USER_ID ? DELETED_USER_AUTHOR : author;
}
