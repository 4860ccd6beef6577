/**
 * Every list the API pages (feeds, a user's posts, notices) is chained by the server's opaque
 * keyset cursor, never by page numbers, so an item created while someone scrolls is neither
 * repeated nor skipped; the last page has a null cursor.
 */

/** The cursor of the page to load; null for the first page. */
export type PageCursor = string | null;

/** The paging half of a TanStack infinite query over any of those lists. */
export const cursorPaging = {
  initialPageParam: null as PageCursor,
  getNextPageParam: (lastPage: { nextCursor: PageCursor }): PageCursor => lastPage.nextCursor,
};

/** A list request's query string (`feed=…&limit=…&cursor=…`), in the given order; null values are left out. */
export function pageQuery(params: Record<string, string | number | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null) search.set(name, String(value));
  return search.toString();
}
