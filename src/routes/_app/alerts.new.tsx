import { createFileRoute } from '@tanstack/react-router';
import { NewRulePage } from '../../features/alerts/new-rule-page';
import { newRuleSearchSchema } from '../../features/alerts/alerts-search';

export const Route = createFileRoute('/_app/alerts/new')({
  validateSearch: newRuleSearchSchema,
  component: NewRulePage,
});
