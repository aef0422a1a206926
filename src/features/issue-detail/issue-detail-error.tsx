import { Link, type ErrorComponentProps } from '@tanstack/react-router';
import { ApiError } from '../../api/errors';
import { buttonClass } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { RouteError } from '../../ui/route-error';
import { useDocumentTitle } from '../../ui/use-document-title';
import styles from './issue-detail-error.module.css';

/**
 * The issue page's failure: an unknown or unreadable issue (the service's `404`, which does
 * not say which) is "issue not found" with the way back to the board; anything else is the
 * usual failure with the service's `next` and "Try again".
 */
export function IssueDetailError(props: ErrorComponentProps) {
  const { error } = props;
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return <IssueNotFound error={error} />;
  }
  return (
    <div className={styles.stateFrame}>
      <RouteError {...props} />
    </div>
  );
}

function IssueNotFound({ error }: { error: ApiError }) {
  useDocumentTitle('Issue not found');
  return (
    <div className={styles.stateFrame}>
      <EmptyState
        title="Issue not found"
        action={
          <Link to="/issues" className={buttonClass('secondary')}>
            Back to issues
          </Link>
        }
      >
        <p>
          There is no issue with this id in the projects you can read. It may belong to a project
          you no longer have access to, or the link may be incomplete.
        </p>
        {error.next && <p>{error.next}</p>}
        <p className={styles.muted}>
          HTTP {error.status}
          {error.code ? ` · ${error.code}` : ''} · {error.message}
        </p>
      </EmptyState>
    </div>
  );
}
