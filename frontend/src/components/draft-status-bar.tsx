import { CheckOutlined, CloudOutlined, LoadingOutlined, WarningOutlined } from '@ant-design/icons';
import type { DraftFields } from '@techit/contract/api-types';
import { Button, Modal, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatExactTime } from '../lib/relative-time';
import type { DraftAutosave } from '../lib/use-draft-autosave';
import { confirm } from '../lib/notify';
import './draft-status-bar.css';

const STATUS_TEXT: Record<string, { icon: ReactNode; text: string } | undefined> = {
  restoring: { icon: <LoadingOutlined aria-hidden />, text: 'Restoring your draft…' },
  pending: { icon: <LoadingOutlined aria-hidden />, text: 'Saving…' },
  saving: { icon: <LoadingOutlined aria-hidden />, text: 'Saving…' },
  saved: { icon: <CheckOutlined aria-hidden />, text: 'Saved' },
  offline: { icon: <CloudOutlined aria-hidden />, text: 'Offline — kept on this device' },
  refused: { icon: <WarningOutlined aria-hidden />, text: 'Not saved — kept on this device' },
  conflict: { icon: <WarningOutlined aria-hidden />, text: 'Changed in another tab' },
};

/**
 * The editor's discreet line about its draft ("Saving…", "Saved", "Offline — kept on this
 * device"), its Discard draft action, and the dialog a conflicting save opens: keep this editor's
 * text or take the other tab's; never one silently over the other.
 */
export function DraftStatusBar({ autosave }: { autosave: DraftAutosave }) {
  const shown = STATUS_TEXT[autosave.status];
  const discard = () =>
    confirm({
      title: 'Discard this draft?',
      content: 'What you typed here is deleted, on this device and on the server.',
      okText: 'Discard',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => autosave.discard(),
    });
  return (
    <div className="draft-status-bar">
      <Typography.Text type="secondary" className="draft-status" role="status" aria-live="polite">
        {shown && (
          <>
            {shown.icon} {shown.text}
            {autosave.status === 'refused' && autosave.reason ? `: ${autosave.reason}` : ''}
          </>
        )}
      </Typography.Text>
      {autosave.hasDraft && (
        <Button type="link" size="small" danger onClick={discard} className="draft-discard">
          Discard draft
        </Button>
      )}
      <Modal
        open={autosave.conflict !== null}
        title="This draft was changed in another tab or device"
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={[
          <Button key="theirs" onClick={autosave.useTheirs}>
            Use the other version
          </Button>,
          <Button key="mine" type="primary" onClick={autosave.keepMine}>
            Keep mine
          </Button>,
        ]}
      >
        {autosave.conflict && (
          <>
            <Typography.Paragraph>
              It was saved elsewhere after this editor last saved it. Which one do you want to keep? The other is
              replaced.
            </Typography.Paragraph>
            <div className="draft-conflict-versions">
              <DraftExcerpt heading="Mine (this editor)" fields={autosave.conflict.mine} />
              <DraftExcerpt
                heading={`The other version (saved ${formatExactTime(autosave.conflict.theirs.updatedAt)})`}
                fields={autosave.conflict.theirs}
              />
            </div>
          </>
        )}
      </Modal>
    </div>
  );
}

function DraftExcerpt({ heading, fields }: { heading: string; fields: DraftFields }) {
  const text = [fields.title, fields.desc, fields.body].filter((part) => part?.trim()).join('\n\n');
  return (
    <section className="draft-conflict-version" aria-label={heading}>
      <Typography.Text strong>{heading}</Typography.Text>
      <Typography.Paragraph className="draft-conflict-text" ellipsis={{ rows: 4 }}>
        {text || '(empty)'}
      </Typography.Paragraph>
    </section>
  );
}
