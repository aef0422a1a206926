import { expect, test } from './support/fixtures';

test('creates a project and an ingest key shown once', async ({ signedInPage: page }) => {
  const name = `E2E project ${Date.now()}`;
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: /create ingest key/i }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /create( ingest)? key/i })
    .click();
  await expect(
    page
      .getByRole('dialog')
      .getByText(/lk_ik_/)
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('dialog').getByText(/not be shown again/i)).toBeVisible();

  // The OpenTelemetry settings carry this key and this service's OTLP endpoint, ready to paste.
  const key = await page.getByRole('dialog').getByLabel('Ingest key').innerText();
  const otel = page.getByRole('dialog').getByLabel('OpenTelemetry SDK or Collector');
  await expect(otel).toContainText(
    `OTEL_EXPORTER_OTLP_ENDPOINT=${new URL(page.url()).origin}/otlp`,
  );
  await expect(otel).toContainText(`OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20${key}`);
  await page.getByRole('dialog').getByRole('radio', { name: 'Lookout SDK batch' }).click();
  await expect(page.getByRole('dialog').getByLabel('Example request')).toContainText(
    `Authorization: Bearer ${key}`,
  );
});

test('a validation failure from the service is shown in the form', async ({
  signedInPage: page,
}) => {
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByLabel('Name').fill(' '.repeat(3));
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toBeVisible();
});
