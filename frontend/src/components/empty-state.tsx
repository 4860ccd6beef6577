import { lazy, type ReactNode, Suspense } from 'react';
import { ButtonLink } from './button-link';
import { paths } from '../config/paths';

// An empty or failed list is never the first paint of a page that has content; Result's code
// arrives when one is first shown.
const EmptyStateResult = lazy(() => import('./empty-state-result'));

interface EmptyStateProps {
  title: string;
  subtitle: string;
  /** Offer a way home (the spec's "go to Home"). */
  homeLink?: boolean;
  /** What to offer instead of the way home (a visitor's invitation to log in). */
  action?: ReactNode;
  /** Offer the search page beside the way home: the not-found states (their "Try searching"). */
  searchLink?: boolean;
}

/** The spec's empty and not-found states: a title, a hint, and a way home (and to search). */
export function EmptyState({ title, subtitle, homeLink = true, action, searchLink = false }: EmptyStateProps) {
  const home = homeLink ? (
    <ButtonLink to={paths.home} type="primary">
      Go to Home
    </ButtonLink>
  ) : undefined;
  return (
    <Suspense fallback={null}>
      <EmptyStateResult
        title={title}
        subtitle={subtitle}
        extra={
          action ??
          (searchLink ? (
            <div className="empty-state-actions">
              {home}
              <ButtonLink to={paths.search()}>Search</ButtonLink>
            </div>
          ) : (
            home
          ))
        }
      />
    </Suspense>
  );
}
