import { ModerationLogList } from '../../features/moderation/components/moderation-log-list';
import { useDocumentTitle } from '../../lib/use-document-title';
import '../../features/moderation/components/moderation.css';

/** /moderation: the public moderation log. */
export default function ModerationLogPage() {
  useDocumentTitle('Moderation log');
  return (
    <div className="moderation-page">
      <h1 className="moderation-heading">Moderation log</h1>
      <p className="secondary-text">
        What the moderators did, and why: reports dismissed, content removed, accounts suspended.
      </p>
      <ModerationLogList />
    </div>
  );
}
