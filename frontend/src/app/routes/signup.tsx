import { AuthScreen } from '../../features/auth/components/auth-screen';
import { SignUpForm } from '../../features/auth/components/signup-form';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

export default function SignUpPage() {
  useDocumentTitle('Create an account');
  return (
    <AuthScreen
      title="Create an account"
      switchPrompt="Already have an account?"
      switchLabel="Log in"
      switchTo={paths.login}
    >
      <SignUpForm />
    </AuthScreen>
  );
}
