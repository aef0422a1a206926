import page from '../../ui/report-page.module.css';
import { ReadBoundary } from '../../ui/read-boundary';
import { useDocumentTitle } from '../../ui/use-document-title';
import { PlanDetails } from './plan-details';

/**
 * `/plan`: the account's subscription, its limits, and whether it can create an organization.
 * Everything shown comes from the service's read; while it loads or when it fails, nothing of a
 * plan is shown (a failed read is never a free plan).
 */
export function PlanPage() {
  useDocumentTitle('Plan');
  return (
    <div className={page.page}>
      <header className={page.header}>
        <div className={page.titleBlock}>
          <h1 className={page.title}>Plan</h1>
          <p className={page.subtitle}>
            The account&apos;s subscription and limits, and whether it can create an organization.
            Times are UTC.
          </p>
        </div>
      </header>
      <ReadBoundary resetKey="plan" label="Loading the plan…">
        <PlanDetails />
      </ReadBoundary>
    </div>
  );
}
