import type { IssueInvestigation } from '../../api/queries/investigations';

type Selection = IssueInvestigation['selection'];

const RULES: Record<NonNullable<Selection['rule']>, string> = {
  trace_and_stack: 'the latest occurrence with both a trace and a stack trace',
  stack_only: 'the latest occurrence with a stack trace (none had a trace as well)',
  latest: 'the latest occurrence (none had a stack trace)',
};

/** Which occurrence the service picked for an issue bundle, and by which rule. */
export function selectionSentence(selection: Selection, occurredAt: string): string {
  const at = `the occurrence of ${occurredAt}`;
  switch (selection.used) {
    case 'recommended':
      return `Recommended: ${selection.rule ? RULES[selection.rule] : 'the occurrence the service recommends'}, ${at}.`;
    case 'latest':
      return `Latest: ${at}.`;
    case 'first':
      return `First: ${at}, the earliest stored.`;
    case 'occurrence_id':
      return `The occurrence you were viewing: ${at}.`;
  }
}
