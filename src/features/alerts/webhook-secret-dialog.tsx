import type { CreatedWebhook } from '../../api/queries/alerts';
import { Modal } from '../../ui/modal';
import { SecretReveal, type SecretExample } from '../../widgets/secret-reveal/secret-reveal';

/** How a receiver checks the signature, ready to paste. */
function verifyExamples(): SecretExample[] {
  return [
    {
      id: 'node',
      label: 'Node.js',
      caption: 'Checking a delivery',
      copyLabel: 'Copy example',
      text: [
        "import { createHmac, timingSafeEqual } from 'node:crypto';",
        '',
        '// header: the Lookout-Signature header; body: the raw request body (a string).',
        'function verify(secret, header, body) {',
        "  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')));",
        "  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');",
        '  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) < 300;',
        "  return fresh && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1 ?? ''));",
        '}',
      ].join('\n'),
      hint: 'Each request carries Lookout-Signature (t=<unix seconds>,v1=<HMAC-SHA256 of "<t>.<raw body>">), Lookout-Event and Lookout-Delivery.',
    },
  ];
}

/** The new webhook's signing secret, shown once: closing the dialog drops it. */
export function WebhookSecretDialog({
  webhook,
  onClose,
}: {
  webhook: CreatedWebhook | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={webhook !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Webhook added"
      wide
      onPointerDownOutside={(event) => event.preventDefault()}
    >
      {webhook && (
        <SecretReveal
          warningTitle="Copy the signing secret now"
          warning="You will not see it again. Give it to the receiver so it can check each request's signature; if it is lost, delete this webhook and add it again."
          secretLabel="Signing secret"
          secret={webhook.secret}
          copyLabel="Copy secret"
          facts={[
            { term: 'Name', value: webhook.name },
            { term: 'URL', value: webhook.url },
          ]}
          examples={verifyExamples()}
          chooserLabel="Check it in"
          onDone={onClose}
        />
      )}
    </Modal>
  );
}
