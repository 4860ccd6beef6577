import { DownloadOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { busy } from '../../../lib/busy';
import { useExportData } from '../api/export-data';

/** POST /api/export: a ZIP of everything the user wrote, liked, followed, bookmarked and drafted; once a day. */
export function DownloadData() {
  const exportData = useExportData();
  return (
    <>
      <Typography.Paragraph>
        A ZIP file of everything you wrote, liked, followed, bookmarked and drafted, as JSON and Markdown, with your
        images. Once a day.
      </Typography.Paragraph>
      <Button
        icon={<DownloadOutlined aria-hidden />}
        loading={busy(exportData.isPending)}
        // Failures are the mutation's toast (a 429 says when to try again).
        onClick={() => {
          if (!exportData.isPending) exportData.mutate();
        }}
      >
        Download my data
      </Button>
    </>
  );
}
