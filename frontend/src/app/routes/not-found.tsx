import { EmptyState } from '../../components/empty-state';
import { useDocumentTitle } from '../../lib/use-document-title';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <EmptyState
      title="This page doesn't exist!"
      subtitle="Check the address, try searching, or go to Home."
      searchLink
    />
  );
}
