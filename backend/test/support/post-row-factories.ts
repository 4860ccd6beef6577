import { titleKey } from '../../src/search/search-query.parser';
import type { FullRow } from '../../src/seed/bulk-writer';

/**
 * A whole `posts` row for the suites that insert many posts straight into the table (a sitemap of
 * 50,000, a feed of 120 authors): the API would take minutes to write them. What a suite cares
 * about is given; the rest is an empty, unremoved, never-edited post whose Markdown has not been
 * rendered yet (render_version 0, no stored HTML: the reads render it as they do after an import).
 */
export function postRow(
  fields: { id: string; authorId: string; at: string } & Partial<Omit<FullRow<'posts'>, 'title_key'>>,
): FullRow<'posts'> {
  const { id, authorId, at, ...rest } = fields;
  const title = rest.title ?? `Post ${id}`;
  return {
    id,
    author_id: authorId,
    title,
    // As the posts repository writes it with every title.
    title_key: titleKey(title),
    description: 'd',
    photo: '',
    category: '',
    link1: '',
    link2: '',
    likes_count: 0,
    comments_count: 0,
    commenters_count: 0,
    hot_score: 0,
    created_at: at,
    updated_at: at,
    edited_at: null,
    body: '',
    desc_html: null,
    body_html: null,
    render_version: 0,
    removed_at: null,
    removed_by: null,
    ...rest,
  };
}
