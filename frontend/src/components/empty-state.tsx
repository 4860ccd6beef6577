import { Result } from 'antd';
import { ButtonLink } from './button-link';
import { paths } from '../config/paths';

interface EmptyStateProps {
  title: string;
  subtitle: string;
  /** Offer a way home (the spec's "go to Home"). */
  homeLink?: boolean;
}

/** The spec's empty and not-found states: a title, a hint, and a way home. */
export function EmptyState({ title, subtitle, homeLink = true }: EmptyStateProps) {
  return (
    <Result
      status="info"
      title={title}
      subTitle={subtitle}
      extra={
        homeLink ? (
          <ButtonLink to={paths.home} type="primary">
            Go to Home
          </ButtonLink>
        ) : undefined
      }
    />
  );
}
