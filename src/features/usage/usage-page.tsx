import page from '../../ui/report-page.module.css';
import { ReadBoundary } from '../../ui/read-boundary';
import palette from '../../ui/series-palette.module.css';
import { useDocumentTitle } from '../../ui/use-document-title';
import { PlanStanding } from '../../widgets/plan-standing/plan-standing';
import { CurrentUsage } from './current-usage';
import { UsageHistorySection } from './usage-history-section';

/**
 * `/usage`: what the account's projects sent in the current period against the plan's
 * allowances (the quota state first), where it came from, what SDKs dropped before sending,
 * and the history per day, week, month or year. Usage, never money.
 */
export function UsagePage() {
  useDocumentTitle('Usage');
  return (
    <div className={`${page.page} ${palette.palette}`}>
      <header className={page.header}>
        <div className={page.titleBlock}>
          <h1 className={page.title}>Usage</h1>
          <p className={page.subtitle}>
            Telemetry received from the projects your account owns, counted by time of receipt in
            UTC calendar periods. Usage, not cost.
          </p>
        </div>
      </header>
      <ReadBoundary resetKey="usage-current" label="Reading usage…">
        <CurrentUsage />
      </ReadBoundary>
      <ReadBoundary resetKey="usage-standing" label="Reading the plan…">
        <PlanStanding on="usage" />
      </ReadBoundary>
      <UsageHistorySection />
    </div>
  );
}
