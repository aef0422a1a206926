import { createFileRoute } from '@tanstack/react-router';
import { IncidentsPage } from '../../features/alerts/incidents-page';
import { incidentsSearchSchema } from '../../features/alerts/alerts-search';

export const Route = createFileRoute('/_app/alerts/history')({
  validateSearch: incidentsSearchSchema,
  component: IncidentsPage,
});
