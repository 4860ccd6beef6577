import { ArrowLeftOutlined } from '@ant-design/icons';
import type { FieldChange, PostRevision, RevisedField } from '@techit/contract/api-types';
import { Button, theme } from 'antd';
import { type CSSProperties, useId } from 'react';
import { ButtonLink } from '../../../components/button-link';
import { EmptyState } from '../../../components/empty-state';
import { RelativeTime } from '../../../components/relative-time';
import { Card } from '../../../components/surface-card';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { wordDiff } from '../../../lib/word-diff';
import { usePost } from '../api/get-post';
import { usePostRevisions } from '../api/get-revisions';
import { PostCardSkeleton } from './post-card-skeleton';
import './post-history.css';

/** A revision keeps tags comma-joined (decision 032): shown as the cards show them, "#a, #b". */
const showTags = (joined: string) =>
  joined
    .split(',')
    .filter(Boolean)
    .map((tag) => `#${tag}`)
    .join(', ');

/** The fields in the edit form's order, named as the form names them. */
const FIELDS: readonly { field: RevisedField; label: string; words: boolean; show?: (value: string) => string }[] = [
  { field: 'title', label: 'Title', words: true },
  { field: 'desc', label: 'Description', words: true },
  // The Markdown source, diffed like the other texts (word-diff.ts keeps a 40,000-character one cheap).
  { field: 'body', label: 'Article', words: true },
  { field: 'category', label: 'Category', words: false },
  { field: 'tags', label: 'Tags', words: false, show: showTags },
  { field: 'link1', label: 'Code link', words: false },
  { field: 'link2', label: 'Demo link', words: false },
  { field: 'photo', label: 'Picture', words: false },
];

/** Text: the words removed struck through, the words added marked. Anything else: before → after. */
function Change({
  change,
  words,
  show = (value) => value,
}: {
  change: FieldChange;
  words: boolean;
  show?: (value: string) => string;
}) {
  if (!words) {
    return (
      <p className="revision-value">
        <del>
          <span className="visually-hidden">Before: </span>
          {show(change.from) || '(none)'}
        </del>
        <span aria-hidden> → </span>
        <ins>
          <span className="visually-hidden">, after: </span>
          {show(change.to) || '(none)'}
        </ins>
      </p>
    );
  }
  return (
    <p className="revision-value revision-words">
      {wordDiff(change.from, change.to).map((part, index) => {
        if (part.kind === 'same') return <span key={index}>{part.text}</span>;
        const Tag = part.kind === 'removed' ? 'del' : 'ins';
        return (
          <Tag key={index}>
            <span className="visually-hidden">{part.kind === 'removed' ? '[removed: ' : '[added: '}</span>
            {part.text}
            <span className="visually-hidden">]</span>
          </Tag>
        );
      })}
    </p>
  );
}

function Revision({ revision }: { revision: PostRevision }) {
  return (
    <li>
      <Card>
        <p className="revision-meta">
          Edited by <strong>{revision.editedBy.userName}</strong> <RelativeTime dateTime={revision.createdAt} />
        </p>
        <dl className="revision-changes">
          {FIELDS.map(({ field, label, words, show }) => {
            const change = revision.changes[field];
            if (!change) return null;
            return (
              <div key={field} className="revision-field">
                <dt>{label}</dt>
                <dd>
                  <Change change={change} words={words} show={show} />
                </dd>
              </div>
            );
          })}
        </dl>
      </Card>
    </li>
  );
}

/** A post's edits, newest first, each with what it changed (its author and admins only). */
export function PostHistory({ postId }: { postId: string }) {
  const post = usePost(postId, { showsError: true });
  const history = usePostRevisions(postId);
  const headingId = useId();
  const { token } = theme.useToken();
  const colors = {
    // Border tones: visible behind the text in both themes, and the text keeps its own colour
    // (the success and error text tones are too pale on white to read).
    '--diff-removed-bg': token.colorErrorBorder,
    '--diff-added-bg': token.colorSuccessBorder,
  } as CSSProperties;

  const status = history.error instanceof ApiError ? history.error.status : null;
  if (status === 404)
    return (
      <EmptyState
        title="This Post doesn't exist!"
        subtitle="Try searching for another Post or go to Home."
        searchLink
      />
    );
  if (status === 403)
    return (
      <EmptyState title="This history is private" subtitle="Only the post's author and admins can see its edits." />
    );

  const revisions = history.data?.pages.flatMap((page) => page.revisions) ?? [];
  return (
    <section className="post-history" aria-labelledby={headingId} style={colors}>
      <ButtonLink to={paths.post(postId)} type="link" icon={<ArrowLeftOutlined aria-hidden />} className="history-back">
        Back to the post
      </ButtonLink>
      <h1 id={headingId} className="history-heading">
        Edit history{post.data ? `: ${post.data.title}` : ''}
      </h1>
      {history.isPending ? (
        <div aria-busy="true">
          <PostCardSkeleton />
        </div>
      ) : revisions.length === 0 ? (
        <p className="revision-meta">This post has not been edited.</p>
      ) : (
        <ol className="plain-list revision-list">
          {revisions.map((revision) => (
            <Revision key={revision._id} revision={revision} />
          ))}
        </ol>
      )}
      {history.hasNextPage && (
        <Button onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage}>
          Show older edits
        </Button>
      )}
    </section>
  );
}
