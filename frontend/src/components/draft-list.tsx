import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Draft, DraftKind } from '@techit/contract/api-types';
import { Button, Typography } from 'antd';
import { deleteDraft, draftKeys, draftTitle, listDrafts } from '../lib/drafts-api';
import { confirm } from '../lib/notify';
import { hasStatus } from '../lib/query-client';
import { RelativeTime } from './relative-time';
import { Card } from './surface-card';
import './draft-list.css';

interface DraftListProps {
  kind: DraftKind;
  /** The draft the editor below writes now (marked, not offered to open). */
  currentId: string | null;
  onOpen: (draftId: string) => void;
  /** Start a new one; the current draft stays saved. */
  onNew: () => void;
  /** A deleted draft was the one open. */
  onDeleted: (draftId: string) => void;
}

/** The create page's list of your unpublished drafts of new posts, most recently saved first. */
export function DraftList({ kind, currentId, onOpen, onNew, onDeleted }: DraftListProps) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: draftKeys.list(),
    queryFn: listDrafts,
    // A 401 is told by the api-client ('Please login again').
    meta: {
      errorToast: {
        title: 'Oops',
        description: 'there was an issue while loading your drafts!',
        except: hasStatus(401),
      },
    },
  });
  const drafts = (query.data ?? []).filter((draft) => draft.kind === kind && draft.postId === null);
  if (drafts.length === 0) return null;

  const remove = (draft: Draft) =>
    confirm({
      title: 'Delete this draft?',
      content: draftTitle(draft),
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: async () => {
        await deleteDraft(draft._id);
        queryClient.setQueryData<Draft[]>(draftKeys.list(), (all) => all?.filter((other) => other._id !== draft._id));
        if (draft._id === currentId) onDeleted(draft._id);
      },
    });

  return (
    <Card size="small" title="Your drafts" className="draft-list" role="region" aria-label="Your drafts">
      <ul className="draft-list-items">
        {drafts.map((draft) => {
          const title = draftTitle(draft);
          const current = draft._id === currentId;
          return (
            <li key={draft._id} className="draft-list-item">
              <span className="draft-list-text">
                <Typography.Text strong={current} ellipsis className="draft-list-title">
                  {title}
                </Typography.Text>
                <Typography.Text type="secondary" className="draft-list-time">
                  {current ? 'Editing now · ' : ''}saved <RelativeTime dateTime={draft.updatedAt} />
                </Typography.Text>
              </span>
              <span className="draft-list-actions">
                {!current && (
                  <Button size="small" onClick={() => onOpen(draft._id)} aria-label={`Open draft ${title}`}>
                    Open
                  </Button>
                )}
                <Button size="small" danger onClick={() => remove(draft)} aria-label={`Delete draft ${title}`}>
                  Delete
                </Button>
              </span>
            </li>
          );
        })}
      </ul>
      {currentId && (
        <Button size="small" type="link" onClick={onNew} className="draft-list-new">
          Start a new post
        </Button>
      )}
    </Card>
  );
}
