import { AuthScreen } from '../../features/auth/components/auth-screen';
import { ForgotPasswordForm } from '../../features/password-reset/components/forgot-password-form';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

export default function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  return (
    <AuthScreen title="Reset your password" switchPrompt="Remembered it?" switchLabel="Log in" switchTo={paths.login}>
      <ForgotPasswordForm />
    </AuthScreen>
  );
}
