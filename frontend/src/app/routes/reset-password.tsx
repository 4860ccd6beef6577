import { useSearchParams } from 'react-router-dom';
import { AuthScreen } from '../../features/auth/components/auth-screen';
import { InvalidResetLink, ResetPasswordForm } from '../../features/password-reset/components/reset-password-form';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

/** The page the reset mail links to: /reset-password?token=… (backend password-reset.service.ts). */
export default function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const token = useSearchParams()[0].get('token')?.trim() ?? '';
  return (
    <AuthScreen title="Choose a new password" switchPrompt="Remembered it?" switchLabel="Log in" switchTo={paths.login}>
      {token ? <ResetPasswordForm token={token} /> : <InvalidResetLink />}
    </AuthScreen>
  );
}
