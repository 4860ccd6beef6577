import { FlagOutlined } from '@ant-design/icons';
import type { ReportTargetKind } from '@techit/contract/enums';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSession } from '../lib/session';
import { useRequireLogin } from './use-require-login';

// The dialog's form libraries are not needed to read a feed: fetched on the first press.
const ReportDialog = lazy(() => import('./report-dialog'));

const NOUNS: Record<ReportTargetKind, string> = { post: 'post', comment: 'comment', notice: 'notice', user: 'user' };

interface ReportButtonProps {
  targetKind: ReportTargetKind;
  targetId: string;
  /** Whose it is: nobody reports their own content (the server refuses it too). */
  authorId: string;
  /** Names the target for screen readers: "Report post: <label>". */
  label: string;
  /** Show the word beside the flag (roomy places: the post page, a profile); else icon only. */
  withText?: boolean;
}

/**
 * "Report" on a post, comment, notice or profile (issue 20): opens the report dialog. A visitor
 * gets the usual "Login Required!" toast; nothing shows on the reader's own content or on content
 * with no author to report (removed or deleted placeholders). Shared by the posts, notices and
 * users features.
 */
export function ReportButton({ targetKind, targetId, authorId, label, withText = false }: ReportButtonProps) {
  const { user } = useSession();
  const requireLogin = useRequireLogin();
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  if (user?._id === authorId || authorId === '') return null;
  const noun = NOUNS[targetKind];
  return (
    <>
      <Button
        type="text"
        size="small"
        className="report-button"
        icon={<FlagOutlined aria-hidden />}
        aria-label={`Report ${noun}: ${label}`}
        title={`Report this ${noun}`}
        onClick={() =>
          requireLogin(`Please login to report a ${noun}`, () => {
            setAsked(true);
            setOpen(true);
          })
        }
      >
        {withText ? 'Report' : null}
      </Button>
      {asked && (
        <Suspense fallback={null}>
          <ReportDialog
            open={open}
            targetKind={targetKind}
            targetId={targetId}
            noun={noun}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </>
  );
}
