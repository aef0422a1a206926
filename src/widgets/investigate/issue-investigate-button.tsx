import { useState } from 'react';
import { investigationQueries, type IssueSelector } from '../../api/queries/investigations';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { SearchIcon } from '../../ui/icons';
import { SegmentedChoice } from '../../ui/segmented-choice';
import styles from './evidence.module.css';
import { InvestigatePanel } from './investigate-panel';
import { selectionSentence } from './selection-text';

type Choice = 'recommended' | 'latest' | 'first' | 'viewed';

/**
 * "Investigate" on an issue: the bundle of one occurrence, chosen by the service's rule
 * (recommended by default, latest, first) or the occurrence being viewed.
 */
export function IssueInvestigateButton({
  issueId,
  viewedOccurrenceId,
}: {
  issueId: string;
  viewedOccurrenceId: string | null;
}) {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<Choice>('recommended');
  const selector: IssueSelector =
    choice === 'viewed' && viewedOccurrenceId !== null
      ? { occurrence_id: viewedOccurrenceId }
      : { selection: choice === 'viewed' ? 'recommended' : choice };
  const options: { value: Choice; label: string }[] = [
    { value: 'recommended', label: 'Recommended' },
    { value: 'latest', label: 'Latest' },
    { value: 'first', label: 'First' },
    ...(viewedOccurrenceId === null
      ? []
      : [{ value: 'viewed' as const, label: 'This occurrence' }]),
  ];
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        <SearchIcon size={13} aria-hidden="true" />
        Investigate
      </Button>
      <InvestigatePanel
        open={open}
        onOpenChange={setOpen}
        title="Investigate issue"
        query={investigationQueries.issue(issueId, selector)}
        toolbar={
          <SegmentedChoice
            label="Occurrence to investigate"
            caption="Occurrence"
            value={choice}
            options={options}
            onChange={setChoice}
          />
        }
        note={(bundle) => (
          <p className={styles.muted} data-testid="investigation-selection">
            {selectionSentence(bundle.selection, formatUtcDateTime(bundle.occurrence.occurred_at))}
          </p>
        )}
      />
    </>
  );
}
