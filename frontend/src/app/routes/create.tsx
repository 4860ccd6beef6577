import { Flex, Radio, Typography } from 'antd';
import { type MouseEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { CreateNoticeForm } from '../../features/notices/components/create-notice-form';
import { CreatePostForm } from '../../features/posts/components/create-post-form';
import { useDocumentTitle } from '../../lib/use-document-title';
import { DraftList } from '../../components/draft-list';
import type { DraftChoice } from '../../lib/use-draft-autosave';

type Kind = 'post' | 'notice';

/** /createpost (logged-in only; the router sends visitors home): a post or a notice. */
export default function CreatePage() {
  const navigate = useNavigate();
  const [kind, setKind] = useState<Kind>('post');
  // The post form opens the newest draft, or the one chosen from the list; `opened` remounts it.
  const [draft, setDraft] = useState<{ choice: DraftChoice; opened: number }>({
    choice: { mode: 'resume' },
    opened: 0,
  });
  const [currentDraftId, setCurrentDraftId] = useState<string | null>(null);
  const openDraft = (choice: DraftChoice) => {
    setCurrentDraftId(choice.mode === 'open' ? choice.draftId : null);
    setDraft((previous) => ({ choice, opened: previous.opened + 1 }));
  };
  const heading = kind === 'post' ? 'Create a post' : 'Create a notice';
  useDocumentTitle(heading);

  // Back in history; opened directly (nothing of ours to go back to), home instead.
  const goBack = (event: MouseEvent<HTMLElement>) => {
    event.preventDefault();
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    void (index > 0 ? navigate(-1) : navigate(paths.home));
  };

  return (
    <div style={{ maxWidth: 680, margin: '0 auto' }}>
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
        <Typography.Link href={paths.home} onClick={goBack}>
          {'< Back'}
        </Typography.Link>
        <Radio.Group
          aria-label="What to create"
          optionType="button"
          buttonStyle="solid"
          value={kind}
          onChange={(event) => setKind(event.target.value as Kind)}
          options={[
            { value: 'post', label: 'Post' },
            { value: 'notice', label: 'Notice' },
          ]}
        />
      </Flex>
      <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
        {heading}
      </Typography.Title>
      {kind === 'post' ? (
        <>
          <DraftList
            kind="post"
            currentId={currentDraftId}
            onOpen={(draftId) => openDraft({ mode: 'open', draftId })}
            onNew={() => openDraft({ mode: 'blank' })}
            onDeleted={() => openDraft({ mode: 'blank' })}
          />
          <CreatePostForm key={draft.opened} draft={draft.choice} onDraftId={setCurrentDraftId} />
        </>
      ) : (
        <CreateNoticeForm />
      )}
    </div>
  );
}
