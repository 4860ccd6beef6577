import type { Comment } from '@techit/contract/api-types';
import {
  afterDeletion,
  ancestorsOf,
  buildCommentTree,
  type CommentNode,
} from '../../frontend/src/features/posts/components/comment-tree-builder';
import { typedMention } from '../../frontend/src/lib/typed-mention';

let clock = 0;
/** A comment `id` answering `parentId`, created after every comment made before it. */
function comment(id: string, parentId: string | null = null, deleted = false): Comment {
  clock += 1;
  return {
    _id: id,
    text: deleted ? '' : `text of ${id}`,
    textHtml: deleted ? '' : `<p>text of ${id}</p>`,
    postedBy: { _id: deleted ? '' : 'u1', userName: deleted ? '[deleted]' : 'ada', pic: '' },
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(),
    parentId,
    editedAt: null,
    deleted,
  };
}

/** The tree as text: id(children…), orphans marked with ^. */
function shape(nodes: CommentNode[]): string {
  return nodes
    .map(
      (node) =>
        `${node.orphan ? '^' : ''}${node.comment._id}${node.children.length ? `(${shape(node.children)})` : ''}`,
    )
    .join(' ');
}

describe('the comment tree of the post page', () => {
  const a = comment('a');
  const b = comment('b');
  const a1 = comment('a1', 'a');
  const a1x = comment('a1x', 'a1');
  const a2 = comment('a2', 'a');
  const b1 = comment('b1', 'b');

  it('nests replies under what they answer, oldest first, whatever order the pages came in', () => {
    expect(shape(buildCommentTree([a, b, a1, a1x, a2, b1]))).toBe('a(a1(a1x) a2) b(b1)');
    expect(shape(buildCommentTree([b1, a2, a1x, a, b, a1, a1]))).toBe('a(a1(a1x) a2) b(b1)');
  });

  it('draws a reply whose parent is not loaded (a feed card’s newest 3) at the top, marked as a reply', () => {
    expect(shape(buildCommentTree([a1x, a2, b1]))).toBe('^a1x ^a2 ^b1');
    expect(shape(buildCommentTree([a, a1x, a2]))).toBe('a(a2) ^a1x');
  });

  it('draws one subthread from its comment (?thread=), without its ancestors', () => {
    expect(shape(buildCommentTree([a, a1, a1x, a2], 'a1'))).toBe('a1(a1x)');
    expect(ancestorsOf([a, a1, a1x, a2], 'a1x').map((c) => c._id)).toEqual(['a', 'a1']);
  });

  it('keeps a deleted comment with replies as "[deleted]", and removes one without and the placeholders left empty', () => {
    const all = [a, a1, a1x, a2, b, b1];
    const placeholder = all.map(afterDeletion(all, 'a1')).find((c) => c?._id === 'a1');
    expect(placeholder).toMatchObject({ deleted: true, text: '', textHtml: '', postedBy: { userName: '[deleted]' } });

    const withPlaceholder = [a, comment('d', 'a', true), comment('d1', 'd'), b];
    const left = withPlaceholder.map(afterDeletion(withPlaceholder, 'd1')).filter((c) => c !== null);
    expect(left.map((c) => c._id)).toEqual(['a', 'b']);
  });
});

describe('an @ mention being typed in an editor', () => {
  it('is found from the @ to the caret, not inside a word, an email or a path', () => {
    expect(typedMention('hello @ad', 9)).toEqual({ start: 6, end: 9, prefix: 'ad' });
    expect(typedMention('@ada.l', 6)).toEqual({ start: 0, end: 6, prefix: 'ada.l' });
    expect(typedMention('mail me@ada', 11)).toBeNull();
    expect(typedMention('see /x/@ada', 11)).toBeNull();
    expect(typedMention('hello @ada there', 16)).toBeNull();
    expect(typedMention('(@bo', 4)).toEqual({ start: 1, end: 4, prefix: 'bo' });
  });
});
