import { AuthScreen } from '../../features/auth/components/auth-screen';
import { LoginForm } from '../../features/auth/components/login-form';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

export default function LoginPage() {
  useDocumentTitle('Log in');
  return (
    <AuthScreen
      title="Login to your account"
      switchPrompt="New to TechIt?"
      switchLabel="Sign up"
      switchTo={paths.signup}
    >
      <LoginForm />
    </AuthScreen>
  );
}
