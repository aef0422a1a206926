import { createFileRoute } from '@tanstack/react-router';
import { WebhooksPage } from '../../features/alerts/webhooks-page';
import { webhooksSearchSchema } from '../../features/alerts/alerts-search';

export const Route = createFileRoute('/_app/alerts/webhooks')({
  validateSearch: webhooksSearchSchema,
  component: WebhooksPage,
});
