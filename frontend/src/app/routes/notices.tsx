import { Typography } from 'antd';
import { NoticeList } from '../../features/notices/components/notice-list';
import { useDocumentTitle } from '../../lib/use-document-title';

const PAGE = { maxWidth: 800, margin: '0 auto' } as const;

/** /notices — every notice, newest first, loading more as the reader scrolls. */
export default function NoticesPage() {
  useDocumentTitle('Notices');
  return (
    <div className="notices-page" style={PAGE}>
      <Typography.Title level={1} style={{ fontSize: 26, marginTop: 0 }}>
        Notices
      </Typography.Title>
      <NoticeList source={{ kind: 'all' }} />
    </div>
  );
}
