import { createFileRoute } from '@tanstack/react-router';
import { RulesPage } from '../../features/alerts/rules-page';
import { rulesSearchSchema } from '../../features/alerts/alerts-search';

export const Route = createFileRoute('/_app/alerts/')({
  validateSearch: rulesSearchSchema,
  component: RulesPage,
});
