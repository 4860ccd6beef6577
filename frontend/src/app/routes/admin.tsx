import { AdminArea } from '../../features/moderation/components/admin-area';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import NotFoundPage from './not-found';

/** /admin: moderators and admins only; anyone else, visitors too, gets the not-found screen. */
export default function AdminPage() {
  const { canModerate } = useSession();
  if (!canModerate) return <NotFoundPage />;
  return <AdminScreen />;
}

function AdminScreen() {
  useDocumentTitle('Admin');
  return <AdminArea />;
}
