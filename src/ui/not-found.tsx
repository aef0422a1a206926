import { Link } from '@tanstack/react-router';
import { buttonClass } from './button';
import { EmptyState } from './empty-state';

/** A path the console has no page for. */
export function NotFound() {
  return (
    <EmptyState
      title="Page not found"
      action={
        <Link to="/projects" className={buttonClass('secondary')}>
          Go to projects
        </Link>
      }
    >
      There is no page at this address. It may have moved, or the link may be incomplete.
    </EmptyState>
  );
}
